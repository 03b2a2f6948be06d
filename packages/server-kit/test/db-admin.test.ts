import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../src/testing/index.ts';
import {
  dbMigrate,
  dbStatus,
  describeDatabase,
  pgDumpAdvice,
  withId,
  type DbTarget,
  type MigrationSet,
} from '../src/index.ts';

const options = (url: string) => ({ url, dataDir: '/srv/data', fileName: 'app.db' });

describe('what the db commands print about a connection', () => {
  it('describes a database without its password', () => {
    expect(
      describeDatabase(
        options('postgres://fleet:s3cret@db.internal:5433/manager?password=x&sslmode=require'),
      ),
    ).toBe('postgres://fleet@db.internal:5433/manager?sslmode=require');
    expect(describeDatabase(options('sqlite:/var/lib/app/app.db'))).toBe('sqlite:/var/lib/app/app.db');
    expect(describeDatabase({ url: undefined, dataDir: '/srv/data', fileName: 'app.db' })).toBe(
      'sqlite:/srv/data/app.db',
    );
  });

  it('prints a pg_dump command with every parameter but the password, quoted for the shell', () => {
    const lines = pgDumpAdvice(
      'postgresql://ops%20team:s3cret@db.internal/fleet?sslmode=verify-full',
      "/backups/it's here.dump",
    );
    expect(lines[1]).toBe(
      "  PGSSLMODE=verify-full pg_dump --format=custom --file='/backups/it'\\''s here.dump' --host=db.internal " +
        "--port=5432 --username='ops team' --dbname=fleet",
    );
    expect(lines.join('\n')).not.toContain('s3cret');
    expect(lines.join('\n')).toContain('PGPASSWORD or ~/.pgpass');
  });
});

const things = (dialect: Parameters<MigrationSet>[0], withLater: boolean): ReturnType<MigrationSet> => ({
  '001_things': {
    async up(db) {
      await withId(db.schema.createTable('things'), dialect).addColumn('name', 'varchar(50)').execute();
    },
  },
  ...(withLater
    ? {
        '002_more': {
          async up(db) {
            await db.schema.alterTable('things').addColumn('kind', 'varchar(50)').execute();
          },
        },
      }
    : {}),
});

describe(`db status on a database a newer version migrated (${testDialect()})`, () => {
  let test: TestDatabase;
  const target = (withLater: boolean): DbTarget => ({
    command: 'app',
    options: {
      url: test.url,
      dataDir: test.dataDir,
      fileName: 'app.db',
      ...(test.schema ? { schema: test.schema } : {}),
    },
    set: (dialect) => things(dialect, withLater),
    name: 'app',
  });

  beforeAll(async () => {
    test = await createTestDatabase();
    await dbMigrate(target(true), () => undefined);
  });
  afterAll(() => test?.drop());

  it('names the migrations this version does not know and exits 1', async () => {
    const lines: string[] = [];
    expect(await dbStatus(target(false), (line) => lines.push(line))).toBe(1);
    expect(lines).toContain('Applied (1): 001_things');
    expect(lines).toContain('Unknown to this version (1): 002_more');
    expect(await dbStatus(target(true), () => undefined)).toBe(0);
  });
});
