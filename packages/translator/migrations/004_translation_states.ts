import type { Kysely, Migration } from 'kysely';
import { withId, type DialectName } from '@app/server-kit';

/**
 * Translation states (machine, human, reviewed), the AI's suggestion beside a translation it may not
 * replace, and the history of every change. Rows written before states existed carry no record of who
 * wrote them (AI jobs keep no items once finished), so they become `human`: an AI job never overwrites
 * them, and nothing is delivered differently until a project asks for reviewed translations only.
 */
export const translationStates = (dialect: DialectName): Migration => ({
  // Migrations are written against the schema as it was, not the current row types.

  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('translations')
      .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('human'))
      .execute();
    await db.schema.alterTable('translations').addColumn('suggestion', 'text').execute();

    await withId(db.schema.createTable('translation_history'), dialect)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('phrase_id', 'integer', (c) => c.notNull().references('phrases.id').onDelete('cascade'))
      .addColumn('lang', 'varchar(35)', (c) => c.notNull())
      .addColumn('old_value', 'text')
      .addColumn('new_value', 'text')
      .addColumn('old_state', 'varchar(16)')
      .addColumn('new_state', 'varchar(16)')
      .addColumn('source', 'varchar(16)', (c) => c.notNull())
      .addColumn('actor', 'varchar(100)', (c) => c.notNull())
      .addColumn('reverted_id', 'integer')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('translation_history_phrase_lang')
      .on('translation_history')
      .columns(['phrase_id', 'lang', 'id'])
      .execute();
  },
});
