import type { Kysely, Migration } from 'kysely';

/**
 * The words inside a phrase's `{{text:N}}` slots as the page showed them (`avec <b>organic flour</b>` →
 * `["organic flour"]`), JSON, so reviewers see what a slot holds rather than a bare chip. Null until a
 * page reports them.
 */
export const slotTexts = (): Migration => ({
  // Migrations are written against the schema as it was, not the current row types.

  async up(db: Kysely<any>) {
    await db.schema.alterTable('phrases').addColumn('slot_texts', 'text').execute();
  },
});
