// CI runs every test file on SQLite and the files of database-pass.ts on PostgreSQL as well: the list
// may not name a file that is gone (it would silently leave the PostgreSQL pass), and a file whose tests
// run only on PostgreSQL must be on it (off it, they would run in neither pass).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { databasePassFiles } from './database-pass.ts';
import { root } from './imports.ts';

const TEST_FOLDERS = [
  ...readdirSync(join(root, 'packages')).map((name) => `packages/${name}/test`),
  'scripts/test',
];

function testFiles(dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((file) => !file.includes('/real-engines/'));
}

/** How a describe or a test says that it runs on PostgreSQL only. */
const POSTGRES_ONLY = [
  "skipIf(testDialect() !== 'postgres')",
  'skipIf(!process.env.TEST_DATABASE_URL)',
  "runIf(testDialect() === 'postgres')",
  'runIf(process.env.TEST_DATABASE_URL)',
];

describe('the PostgreSQL pass (scripts/test/database-pass.ts)', () => {
  const all = TEST_FOLDERS.flatMap(testFiles);
  const listed = databasePassFiles();

  it('names only test files that exist, each once', () => {
    expect(listed.filter((file) => !all.includes(file))).toEqual([]);
    expect(listed.length).toBe(new Set(listed).size);
  });

  it('holds every file with tests that run only on PostgreSQL', () => {
    const self = relative(root, new URL(import.meta.url).pathname);
    const postgresOnly = all.filter((file) => {
      if (file === self) return false;
      const source = readFileSync(join(root, file), 'utf8');
      return POSTGRES_ONLY.some((marker) => source.includes(marker));
    });
    expect(postgresOnly).toContain('packages/manager/test/scale-out.test.ts');
    expect(postgresOnly.filter((file) => !listed.includes(file))).toEqual([]);
  });
});
