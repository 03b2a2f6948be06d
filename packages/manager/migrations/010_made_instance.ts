import type { Kysely, Migration } from 'kysely';

/**
 * `containers.made_instance`: what a create in progress named on its node (a vmid, an engine
 * container name) before the provider made it. A worker that takes over the create of a dead worker
 * removes it; NULL once the create is recorded (`container_id`) or undone. Plain `add column` of a
 * nullable column: the same on SQLite and PostgreSQL.
 */
export const madeInstance: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('containers').addColumn('made_instance', 'varchar(128)').execute();
  },
};
