import { describe, expect, it } from 'vitest';
import { migratedSchemaDrift, testDialect } from '@app/server-kit/testing';
import { translatorDbTarget } from '../src/db/store.ts';
import { testConfig } from './helpers.ts';

const SCHEMA = new URL('../src/db/schema.ts', import.meta.url).pathname;

// The row types are written by hand beside the migrations: a column added, renamed or made nullable on
// one side only would type-check and fail at run time.
describe(`the translator's row types match the migrated database (${testDialect()})`, () => {
  it('every table and column, its nullability, defaults and kind of value', async () => {
    const drift = await migratedSchemaDrift(
      (database) => translatorDbTarget(testConfig(database)),
      SCHEMA,
      'TranslatorDB',
    );
    // SQLite cannot add NOT NULL to an existing column: the code keeps every project's page key there.
    expect(drift).toEqual(
      testDialect() === 'sqlite' ? ['projects.page_key: declared not null, nullable in the database'] : [],
    );
  });
});
