import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, testDialect, type TestDatabase } from '../src/testing/index.ts';
import {
  createHttpServer,
  migrate,
  openDatabase,
  withId,
  type Database,
  type MigrationSet,
} from '../src/index.ts';

const migrations: MigrationSet = (dialect) => ({
  '001_things': {
    async up(db) {
      await withId(db.schema.createTable('things'), dialect)
        .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
        .addColumn('kind', 'varchar(50)')
        .execute();
    },
  },
});

describe(`database (${testDialect()})`, () => {
  let test: TestDatabase;
  let database: Database<any>;

  beforeAll(async () => {
    test = await createTestDatabase();
    database = openDatabase({
      url: test.url,
      dataDir: test.dataDir,
      fileName: 'x.db',
      ...(test.schema ? { schema: test.schema } : {}),
    });
  });
  afterAll(async () => {
    await database.close();
    await test.drop();
  });

  it('applies migrations once, even when several processes start together', async () => {
    const others = [1, 2, 3].map(() =>
      openDatabase({
        url: test.url,
        dataDir: test.dataDir,
        fileName: 'x.db',
        ...(test.schema ? { schema: test.schema } : {}),
      }),
    );
    await Promise.all([database, ...others].map((db) => migrate(db, migrations)));
    await Promise.all(others.map((db) => db.close()));
    const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(database.db);
    expect(applied.rows.map((row) => row.name)).toEqual(['001_things']);
  });

  it('uses WAL on SQLite and numbers for bigint on PostgreSQL', async () => {
    if (database.dialect === 'sqlite') {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
      expect(mode.rows[0]!.journal_mode).toBe('wal');
    } else {
      const row = await sql<{ n: number }>`select 9007199254740991::bigint as n`.execute(database.db);
      expect(row.rows[0]!.n).toBe(9007199254740991);
    }
  });

  it('maps a unique violation to 409 conflict naming the column', async () => {
    const app = createHttpServer({ logLevel: 'silent', trustProxy: [] });
    app.post('/things', async (request) => {
      await database.db
        .insertInto('things')
        .values(request.body as { name: string })
        .execute();
      return { data: true };
    });
    await database.db.insertInto('things').values({ name: 'taken' }).execute();
    const response = await app.inject({ method: 'POST', url: '/things', payload: { name: 'taken' } });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: { code: 'conflict', message: 'Already exists: name.', fields: { name: 'is already taken' } },
    });
    await app.close();
  });
});

// SQLite test databases are files of their own: nothing another test file does can reach them.
describe.skipIf(testDialect() !== 'postgres')(
  'test schemas on PostgreSQL (PostgreSQL only: a schema dropped while another file migrates)',
  () => {
    // Twenty tables, so the migrator's read of every schema's tables takes a while, as the services' do.
    const wide: MigrationSet = (dialect) => ({
      '001_wide': {
        async up(db) {
          for (let table = 0; table < 20; table++) {
            await withId(db.schema.createTable(`wide_${table}`), dialect)
              .addColumn('name', 'varchar(50)')
              .execute();
          }
        },
      },
    });
    const migrated = async () => {
      const test = await createTestDatabase();
      const database = openDatabase({
        url: test.url,
        dataDir: test.dataDir,
        fileName: 'x.db',
        schema: test.schema!,
      });
      try {
        await migrate(database, wide);
      } finally {
        await database.close();
      }
      return test;
    };

    it('migrates while other test files drop their schemas', async () => {
      let migrations = 0;
      // Four "test files" starting (migrate) and ending (drop) three times each: every drop lands in the
      // middle of the others' migrations, which must all succeed. (A count, not a time: a slow machine
      // makes the overlap no less.)
      await Promise.all(
        [1, 2, 3, 4].map(async () => {
          for (let round = 0; round < 3; round++) {
            await (await migrated()).drop();
            migrations += 1;
          }
        }),
      );
      expect(migrations).toBe(12);
    });
  },
);
