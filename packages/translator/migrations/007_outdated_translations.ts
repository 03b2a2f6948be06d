import type { Kysely, Migration } from 'kysely';

/**
 * Outdated translations: when a page shows a changed text where an old one was, the old phrase's
 * translations are carried over to the new phrase, each keeping the source text it was made for
 * (`outdated_from`) until a person saves or reviews it.
 */
export const outdatedTranslations = (): Migration => ({
  // Migrations are written against the schema as it was, not the current row types.

  async up(db: Kysely<any>) {
    await db.schema.alterTable('translations').addColumn('outdated_from', 'text').execute();
  },
});
