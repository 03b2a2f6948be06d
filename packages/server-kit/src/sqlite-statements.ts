import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { SQLiteDatabase } from './sqlite-driver.ts';

const MAX_STATEMENTS = 256;

/**
 * The database as Kysely's SQLite dialect sees it, with each SQL text prepared once. Kysely prepares a
 * statement for every query; a statement holds native memory that V8 does not count, so under load the
 * discarded ones pile up until a late collection (the translator's RSS after load rose 15–20 MB over its
 * start). Kysely runs one query at a time on its one connection, so a statement is never run twice at once.
 * The least recently used statement is dropped beyond the bound (SQL with varying `in (…)` lists differs).
 */
export function withCachedStatements(sqlite: SQLiteDatabase, max = MAX_STATEMENTS): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else {
        statement = sqlite.prepare(sql) as unknown as SqliteStatement;
        if (statements.size >= max) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
