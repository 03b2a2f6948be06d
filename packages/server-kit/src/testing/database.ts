import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TestDatabase {
  /** Value for the service's database URL setting. */
  url: string;
  /** PostgreSQL schema the service must use (undefined on SQLite). */
  schema?: string;
  dataDir: string;
  drop(): Promise<void>;
}

export const testDialect = () => (process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');

/**
 * A database of its own for one test file: a fresh SQLite file, or with TEST_DATABASE_URL a fresh
 * PostgreSQL schema, so parallel test files never see each other's rows.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'test-data-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) {
    return { url: `sqlite:${join(dataDir, 'test.db')}`, dataDir, drop: async () => removeDir() };
  }
  const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  return {
    url: pgUrl,
    schema,
    dataDir,
    drop: async () => {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
      removeDir();
    },
  };
}
