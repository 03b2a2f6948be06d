import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const PROGRAMS = ['manager', 'translator', 'server-kit', 'agent'];
// `env.int('NAME', …)`, `env.bool('NAME', …)`, …, and helpers handed the reader: `portRange(env, 'NAME', …)`.
const READ = /env\.\w+\(\s*'([A-Z][A-Z0-9_]+)'|\(env,\s*'([A-Z][A-Z0-9_]+)'/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('docs/operations.md', () => {
  it('names every environment variable the services and the site agent read', () => {
    const variables = new Set<string>();
    for (const program of PROGRAMS) {
      for (const file of sources(join(root, 'packages', program, 'src'))) {
        for (const match of readFileSync(file, 'utf8').matchAll(READ)) variables.add((match[1] ?? match[2])!);
      }
    }
    expect(variables.size).toBeGreaterThan(60);
    const doc = readFileSync(join(root, 'docs/operations.md'), 'utf8');
    expect([...variables].filter((name) => !doc.includes(`\`${name}\``)).sort()).toEqual([]);
  });
});
