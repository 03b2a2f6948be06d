import type { Kysely, Migration } from 'kysely';
import { sha256Hex, withId, type DialectName } from '@app/server-kit';

const PAGE = 1000;

/**
 * Translation memory: the source texts people translated (or reviewed) with their translation, per
 * project and language. Entries outlive the phrases they came from, so a text seen again finds its
 * translation. `source_hash` is the sha256 of the source text, for exact matches. AI jobs count what the
 * memory filled before the machine was asked. Existing human and reviewed translations seed the memory.
 */
export const translationMemory = (dialect: DialectName): Migration => ({
  // Migrations are written against the schema as it was, not the current row types.

  async up(db: Kysely<any>) {
    await withId(db.schema.createTable('translation_memory'), dialect)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('lang', 'varchar(35)', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('source_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('translation_memory_source_uq')
      .unique()
      .on('translation_memory')
      .columns(['project_id', 'source_hash', 'lang'])
      .execute();
    await db.schema
      .createIndex('translation_memory_lang')
      .on('translation_memory')
      .columns(['project_id', 'lang', 'id'])
      .execute();
    await db.schema
      .alterTable('ai_jobs')
      .addColumn('memory_filled', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('ai_jobs')
      .addColumn('memory_characters', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    for (let last = 0; ;) {
      const rows = await db
        .selectFrom('translations as t')
        .innerJoin('phrases as p', 'p.id', 't.phrase_id')
        .select(['t.id', 't.project_id', 't.lang', 'p.key', 't.value', 't.state', 't.updated_at'])
        .where('t.state', 'in', ['human', 'reviewed'])
        .where('t.id', '>', last)
        .orderBy('t.id')
        .limit(PAGE)
        .execute();
      if (!rows.length) break;
      last = rows.at(-1)!.id;
      await db
        .insertInto('translation_memory')
        .values(
          rows.map((row) => ({
            project_id: row.project_id,
            lang: row.lang,
            source: row.key,
            source_hash: sha256Hex(row.key),
            value: row.value,
            state: row.state,
            updated_at: row.updated_at,
          })),
        )
        .onConflict((oc) => oc.columns(['project_id', 'source_hash', 'lang']).doNothing())
        .execute();
    }
  },
});
