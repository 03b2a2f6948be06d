import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { MIGRATION_LOCK_KEY } from '../migrations.ts';

export interface TestDatabase {
  /** Value for the service's database URL setting. */
  url: string;
  /** PostgreSQL schema the service must use (undefined on SQLite). */
  schema?: string;
  dataDir: string;
  drop(): Promise<void>;
}

export const testDialect = () => (process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');

const uniqueName = () => `t_${process.pid}_${randomBytes(5).toString('hex')}`;

/** Runs `work` on a connection of its own to `url`, closed afterwards. */
async function withClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

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
  const schema = uniqueName();
  await withClient(pgUrl, (client) => client.query(`create schema ${schema}`));
  return {
    url: pgUrl,
    schema,
    dataDir,
    drop: async () => {
      // A migration running in another test file reads every schema's tables by name: dropping a
      // schema in the middle of that read fails it with `schema "t_…" does not exist`. Migrations
      // hold this lock, so the drop waits for them (and they for it).
      await withClient(pgUrl, async (client) => {
        await client.query('begin');
        await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.query('commit');
      });
      removeDir();
    },
  };
}

/**
 * A whole PostgreSQL database of its own (on TEST_DATABASE_URL's server), for tests that run the
 * service as separate processes exactly as deployed: no schema to pass, and its NOTIFY channels are
 * its own. Dropped with every connection still open to it.
 */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('createPostgresDatabase needs TEST_DATABASE_URL');
  const name = uniqueName();
  await withClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}
