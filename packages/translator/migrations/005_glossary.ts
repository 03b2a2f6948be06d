import type { Kysely, Migration } from 'kysely';
import { withId, type DialectName } from '@app/server-kit';

/**
 * The glossary: a project's terms with the translation they must get in one language (or in every
 * language, `lang` ''), or marked do-not-translate. `term_key` is the term as compared for uniqueness.
 */
export const glossary = (dialect: DialectName): Migration => ({
  // Migrations are written against the schema as it was, not the current row types.

  async up(db: Kysely<any>) {
    await withId(db.schema.createTable('glossary_terms'), dialect)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('lang', 'varchar(35)', (c) => c.notNull())
      .addColumn('term', 'varchar(200)', (c) => c.notNull())
      .addColumn('term_key', 'varchar(200)', (c) => c.notNull())
      .addColumn('translation', 'varchar(200)')
      .addColumn('do_not_translate', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('case_sensitive', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('note', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('glossary_terms_term_uq')
      .unique()
      .on('glossary_terms')
      .columns(['project_id', 'lang', 'term_key'])
      .execute();
  },
});
