import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLite } from '../sqlite-driver.ts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from './database.ts';
import { freePort, runToEnd, startProcess, type RunningService } from './service-process.ts';

/** What differs between the services whose `db` commands the suite drives. */
export interface DbCommandsService {
  /** `manager` or `translator`: the command the messages name, and its variables' prefix (`MANAGER_PORT`). */
  command: string;
  /** The service's src/main.ts. */
  main: string;
  /** Every migration name, in order. */
  migrations: string[];
  /** Output line that says the service listens. */
  readyText: string;
  /**
   * Prepares writing through the running service's API: the returned function adds the i-th row to
   * `table` (throwing when the service refuses).
   */
  prepareWrite(baseUrl: string, service: RunningService): Promise<(i: number) => Promise<void>>;
  table: string;
}

const PASSWORD = 'never-print-me';
/** Rows written before the backup started, and in all. */
interface Written {
  before: number;
  written: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Every test starts several Node.js processes (each some seconds under tsx on a busy machine). */
const SLOW = 180_000;

async function countRows(url: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query(`select count(*) as n from ${table}`)).rows[0].n);
  } finally {
    await client.end();
  }
}

/**
 * `<service> db status|migrate|backup` and MIGRATE_ON_START, run as processes on a database of their
 * own (a SQLite file, or with TEST_DATABASE_URL a fresh PostgreSQL database reached with a password in
 * its URL, which no output may show).
 */
export function dbCommandsSuite(service: DbCommandsService): void {
  const pgUrl = process.env.TEST_DATABASE_URL;
  describe(`${service.command} db commands (${pgUrl ? 'postgres' : 'sqlite'})`, () => {
    const dir = mkdtempSync(join(tmpdir(), `${service.command}-db-`));
    const drops: (() => Promise<void>)[] = [];
    let url = '';
    let port = 0;

    /** A fresh database: its URL as the service is given it. */
    const freshDatabase = async (name: string) => {
      if (!pgUrl) return `sqlite:${join(dir, `${name}.db`)}`;
      const database = await createPostgresDatabase();
      drops.push(database.drop);
      const withPassword = new URL(database.url);
      withPassword.password = PASSWORD;
      return withPassword.toString();
    };
    const env = (databaseUrl: string, extra: Record<string, string> = {}) => ({
      DATA_DIR: dir,
      [`${service.command.toUpperCase()}_DATABASE_URL`]: databaseUrl,
      [`${service.command.toUpperCase()}_PORT`]: String(port),
      HOST: '127.0.0.1',
      SECRET_KEY: 'test-secret-key',
      LOG_LEVEL: 'info',
      ...extra,
    });
    const cli = (args: string[], databaseUrl = url) => runToEnd(service.main, args, env(databaseUrl));

    beforeAll(async () => {
      url = await freshDatabase('service');
      port = await freePort();
    });
    afterAll(async () => {
      for (const drop of drops) await drop();
      rmSync(dir, { recursive: true, force: true });
    }, SLOW);

    it(
      'with MIGRATE_ON_START=false the service refuses to start while migrations are pending',
      async () => {
        const started = startProcess(service.main, [], env(url, { MIGRATE_ON_START: 'false' }));
        expect(await started.exited).toBe(1);
        expect(started.output()).toContain(`run \`${service.command} db migrate\` first`);
        expect(started.output()).toContain(service.migrations[0]);
        expect((await cli(['db', 'status'])).stdout).toContain(`Applied (0): none`);
      },
      SLOW,
    );

    it(
      'status lists the pending migrations and exits 3; migrate applies them; status then exits 0',
      async () => {
        const before = await cli(['db', 'status']);
        expect(before.code).toBe(3);
        expect(before.stdout).toContain(`Dialect: ${pgUrl ? 'postgres' : 'sqlite'}`);
        expect(before.stdout).toContain(
          `Pending (${service.migrations.length}): ${service.migrations.join(', ')}`,
        );
        expect(before.stdout).toContain(`Run \`${service.command} db migrate\``);

        const migrated = await cli(['db', 'migrate']);
        expect(migrated.code).toBe(0);
        expect(migrated.stdout).toContain(
          `Applied ${service.migrations.length} migration(s): ${service.migrations.join(', ')}`,
        );
        expect((await cli(['db', 'migrate'])).stdout).toContain('Nothing to do: the database is up to date.');

        const after = await cli(['db', 'status']);
        expect(after.code).toBe(0);
        expect(after.stdout).toContain(
          `Applied (${service.migrations.length}): ${service.migrations.join(', ')}`,
        );
        expect(after.stdout).toContain('Pending (0): none');
        for (const result of [before, migrated, after])
          expect(result.stdout + result.stderr).not.toContain(PASSWORD);
      },
      SLOW,
    );

    it(
      'backs the database up while the service (started with MIGRATE_ON_START=false) writes',
      async () => {
        const running = startProcess(service.main, [], env(url, { MIGRATE_ON_START: 'false' }));
        try {
          await running.waitFor(service.readyText);
          const write = await service.prepareWrite(`http://127.0.0.1:${port}`, running);
          let stopped = false;
          let written = 0;
          let failure: unknown;
          const writing = (async () => {
            for (let i = 0; !stopped; i++) {
              await write(i);
              written++;
            }
          })().catch((error: unknown) => void (failure = error));
          // A loaded machine may take longer than any fixed pause for the first write: wait for it.
          while (written === 0 && failure === undefined) await pause(50);
          await pause(200);
          const file = join(dir, pgUrl ? 'backup.dump' : 'backup.db');
          const before = written;
          const backup = await cli(['db', 'backup', file]);
          const during = written;
          stopped = true;
          await writing;
          if (failure !== undefined) throw failure;
          // The service wrote before the backup started and on while it ran.
          expect(before).toBeGreaterThan(0);
          expect(during).toBeGreaterThan(before);
          expect(backup.code).toBe(0);
          expect(backup.stdout + backup.stderr).not.toContain(PASSWORD);
          const rows = { before, written };
          if (pgUrl) await checkPgDumpAdvice(backup.stdout, file, rows);
          else await checkSqliteBackup(file, rows);
        } finally {
          await running.stop();
        }
      },
      SLOW,
    );

    /** The printed pg_dump command, run as printed, restores with the printed pg_restore into a new database. */
    async function checkPgDumpAdvice(stdout: string, file: string, written: Written) {
      const target = new URL(url);
      expect(stdout).toContain(
        `pg_dump --format=custom --file=${file} --host=${target.hostname} --port=${target.port || '5432'} ` +
          `--username=${target.username} --dbname=${target.pathname.slice(1)}`,
      );
      const dump = stdout.split('\n').find((line) => line.trim().startsWith('pg_dump '))!;
      execFileSync('sh', ['-c', dump], { env: { ...process.env, PGPASSWORD: PASSWORD } });
      const restored = await freshDatabase('restored');
      const restore = stdout.split('\n').find((line) => line.trim().startsWith('pg_restore '))!;
      const noPassword = new URL(restored);
      noPassword.password = '';
      execFileSync('sh', ['-c', restore.replace('<database>', `'${noPassword.toString()}'`)]);
      const rows = await countRows(restored, service.table);
      // Every row committed before the backup began is in it; none that was never written.
      expect(rows).toBeGreaterThanOrEqual(written.before);
      expect(rows).toBeLessThanOrEqual(written.written);
      const status = await cli(['db', 'status'], restored);
      expect(status.code).toBe(0);
    }

    async function checkSqliteBackup(file: string, written: Written) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      const copy = new SQLite(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const rows = (copy.prepare(`select count(*) as n from ${service.table}`).get() as { n: number }).n;
        expect(rows).toBeGreaterThanOrEqual(written.before);
        expect(rows).toBeLessThanOrEqual(written.written);
      } finally {
        copy.close();
      }
      // Restoring is starting on the copy: it is complete and up to date.
      expect((await cli(['db', 'status'], `sqlite:${file}`)).stdout).toContain('Pending (0): none');

      const size = statSync(file).size;
      const again = await cli(['db', 'backup', file]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`${file} exists: give --force to overwrite it`);
      expect(statSync(file).size).toBe(size);
      expect((await cli(['db', 'backup', file, '--force'])).code).toBe(0);
    }
  });
}
