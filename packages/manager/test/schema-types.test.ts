import { describe, expect, it } from 'vitest';
import { envReader } from '@app/server-kit';
import { migratedSchemaDrift, testDialect } from '@app/server-kit/testing';
import { readManagerConfig } from '../src/config.ts';
import { managerDbTarget } from '../src/db/store.ts';

const SCHEMA = new URL('../src/db/schema.ts', import.meta.url).pathname;
// SQLite cannot add NOT NULL to an existing column: these, added when identities became numbers, are
// NOT NULL on PostgreSQL and kept non-null by the code on SQLite.
const SQLITE_ADDED_LATER = [
  'jobs.created_by_uid_number',
  'containers.owner_uid_number',
  'resource_requests.uid_number',
];

// The row types are written by hand beside the migrations: a column added, renamed or made nullable on
// one side only would type-check and fail at run time.
describe(`the manager's row types match the migrated database (${testDialect()})`, () => {
  it('every table and column, its nullability, defaults and kind of value', async () => {
    const drift = await migratedSchemaDrift(
      (database) =>
        managerDbTarget(
          readManagerConfig(
            envReader({
              DATA_DIR: database.dataDir,
              MANAGER_DATABASE_URL: database.url,
              SECRET_KEY: 'schema',
            }),
          ),
          database.schema,
        ),
      SCHEMA,
      'ManagerDB',
    );
    const expected =
      testDialect() === 'sqlite'
        ? SQLITE_ADDED_LATER.map((column) => `${column}: declared not null, nullable in the database`)
        : [];
    expect(drift).toEqual(expected);
  });
});
