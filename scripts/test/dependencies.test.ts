// Every package declares what it imports, and packages agree on the version of each shared dependency:
// a production install (`npm ci --omit=dev`) gets only `dependencies`, and hoisting must not hide a
// missing declaration.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packages, root, sourceFiles, specifiersOf } from './imports.ts';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, string>;
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const rootManifest = readManifest(root);

/** Package names a file imports: `{ name, typeOnly }` for every non-relative, non-builtin specifier. */
function importsOf(file: string): { name: string; typeOnly: boolean }[] {
  return specifiersOf(file)
    .filter(({ specifier }) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
    .filter(({ specifier }) => !builtinModules.includes(specifier.split('/')[0]!))
    .map(({ specifier, typeOnly }) => {
      const parts = specifier.split('/');
      return { name: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!, typeOnly };
    });
}

/**
 * Code node runs in production; browser code (page client, web clients) is bundled at build time. Specs
 * (`*.spec.ts`) sit beside the code they test but are never built, so they may use devDependencies.
 */
const runsOnNode = (file: string) =>
  (/\/packages\/(server-kit|agent|manager|translator)\/(src|migrations)\//.test(file) &&
    !/\/src\/testing\//.test(file) &&
    !file.endsWith('.spec.ts')) ||
  /\/packages\/page-client\/(bundle|prebuilt)\.ts$/.test(file);

describe('declared dependencies', () => {
  it.each(packages.map((dir) => [dir.split('/').pop()!, dir]))(
    '%s imports only what it declares',
    (_name, dir) => {
      const manifest = readManifest(dir);
      const runtime = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {})]);
      const development = new Set([
        ...runtime,
        ...Object.keys(manifest.devDependencies ?? {}),
        ...Object.keys(rootManifest.devDependencies ?? {}),
      ]);
      const undeclared = sourceFiles(dir).flatMap((file) =>
        importsOf(file)
          .filter(({ name, typeOnly }) => !(runsOnNode(file) && !typeOnly ? runtime : development).has(name))
          .map(({ name }) => `${file.slice(dir.length + 1)}: ${name}`),
      );
      expect([...new Set(undeclared)]).toEqual([]);
    },
  );

  it('one version of each dependency across the packages', () => {
    const versions = new Map<string, Set<string>>();
    for (const manifest of [rootManifest, ...packages.map(readManifest)]) {
      for (const [name, version] of Object.entries({
        ...manifest.dependencies,
        ...manifest.devDependencies,
      })) {
        versions.set(name, (versions.get(name) ?? new Set()).add(version));
      }
    }
    const disagreeing = [...versions]
      .filter(([, set]) => set.size > 1)
      .map(([name, set]) => `${name}: ${[...set].join(', ')}`);
    expect(disagreeing).toEqual([]);
  });
});
