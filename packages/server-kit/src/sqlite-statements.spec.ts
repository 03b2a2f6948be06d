import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SQLite } from './sqlite-driver.ts';
import { withCachedStatements } from './sqlite-statements.ts';

function counted(max?: number) {
  const sqlite = new SQLite(':memory:');
  const prepared: string[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((text: string) => (prepared.push(text), prepare(text))) as typeof sqlite.prepare;
  const db = new Kysely<{ t: { id: Generated<number>; name: string } }>({
    dialect: new SqliteDialect({ database: withCachedStatements(sqlite, max) }),
  });
  return { db, prepared };
}

describe('SQLite statements prepared once per SQL text', () => {
  it('runs the same query again on its prepared statement, with new parameters', async () => {
    const { db, prepared } = counted();
    await sql`create table t (id integer primary key, name text)`.execute(db);
    for (const name of ['a', 'b', 'c']) await db.insertInto('t').values({ name }).execute();
    const names = [];
    for (const id of [1, 2, 3])
      names.push((await db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirst())?.name);
    expect(names).toEqual(['a', 'b', 'c']);
    expect(prepared.filter((text) => text.startsWith('insert'))).toHaveLength(1);
    expect(prepared.filter((text) => text.startsWith('select'))).toHaveLength(1);
    await db.destroy();
  });

  it('keeps at most the bound, dropping the least recently used', async () => {
    const { db, prepared } = counted(2);
    const select = (n: number) => sql`select ${sql.raw(String(n))} as n`.execute(db);
    await select(1);
    await select(2);
    await select(1); // 1 is now the most recent
    await select(3); // drops 2
    await select(1);
    await select(2); // prepared again
    expect(prepared).toEqual(['select 1 as n', 'select 2 as n', 'select 3 as n', 'select 2 as n']);
    await db.destroy();
  });

  it('streams rows on a cached statement and runs it again afterwards', async () => {
    const { db } = counted();
    await sql`create table t (id integer primary key, name text)`.execute(db);
    await db
      .insertInto('t')
      .values([{ name: 'x' }, { name: 'y' }])
      .execute();
    const query = db.selectFrom('t').select('name').orderBy('id');
    const streamed = [];
    for await (const row of query.stream()) streamed.push(row.name);
    expect(streamed).toEqual(['x', 'y']);
    expect((await query.execute()).map((row) => row.name)).toEqual(['x', 'y']);
    await db.destroy();
  });
});
