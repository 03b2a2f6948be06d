import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../database.ts';
import { dbMigrate, type DbTarget } from '../db-admin.ts';
import { migrate, type MigrationSet } from '../migrations.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

const SECTION = /^-- migration: (\S+)$/m;

/**
 * Fills a database from a fixture of sections, each headed `-- migration: <name>`: the database is
 * migrated up to and including that migration (and no further), then the section's statements (ended by
 * `;` at a line end) run. What a database looked like after those releases, without their code.
 */
export async function applyUpgradeFixture<DB>(
  database: Database<DB>,
  file: string,
  set: MigrationSet,
  name: string,
): Promise<void> {
  const parts = readFileSync(file, 'utf8').split(SECTION).slice(1);
  for (let i = 0; i < parts.length; i += 2) {
    const upTo = parts[i]!;
    const upToSet: MigrationSet = (dialect) =>
      Object.fromEntries(Object.entries(set(dialect)).filter(([migration]) => migration <= upTo));
    await migrate(database, upToSet, name);
    const statements = parts[i + 1]!.split(/;\s*$/m).map((statement) => statement.trim());
    for (const statement of statements.filter(Boolean)) await sql.raw(statement).execute(database.db);
  }
}

/**
 * A fresh test database filled from `fixture` (see applyUpgradeFixture), then upgraded by `db migrate`'s
 * code path on the service's `target` for it. Returns the database and the lines `db migrate` printed.
 */
export async function upgradedFromFixture(
  fixture: string,
  target: (database: TestDatabase) => DbTarget,
): Promise<{ database: TestDatabase; migrated: string[] }> {
  const database = await createTestDatabase();
  const { options, set, name } = target(database);
  const old = openDatabase(options);
  await applyUpgradeFixture(old, fixture, set, name);
  await old.close();
  const migrated: string[] = [];
  await dbMigrate(target(database), (line) => migrated.push(line));
  return { database, migrated };
}
