import { randomBytes } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';

/**
 * Publishable page keys (`tpk_` + 24 random URL-safe characters, public by design: they sit in every
 * page, so they are stored as they are) and the last page origin the full key was used from.
 */
export const pageKeys = (): Migration => ({
  // Migrations are written against the schema as it was, not the current row types.

  async up(db: Kysely<any>) {
    await db.schema.alterTable('projects').addColumn('page_key', 'varchar(40)').execute();
    await db.schema.alterTable('projects').addColumn('full_key_origin', 'varchar(300)').execute();
    await db.schema.alterTable('projects').addColumn('full_key_origin_at', 'varchar(32)').execute();
    const projects = await db.selectFrom('projects').select('id').execute();
    for (const { id } of projects) {
      await db
        .updateTable('projects')
        .set({ page_key: `tpk_${randomBytes(18).toString('base64url')}` })
        .where('id', '=', id)
        .execute();
    }
    await db.schema.createIndex('projects_page_key_uq').unique().on('projects').column('page_key').execute();
  },
});
