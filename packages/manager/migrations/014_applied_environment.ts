import type { Kysely, Migration } from 'kysely';

/**
 * `containers.applied_environment`: while saved environment or entrypoint changes wait for a restart
 * (saved with `restart: false`), the environment (JSON) the instance still runs with; NULL when the
 * instance has what is saved. Plain `add column` of a nullable column: the same on both dialects.
 */
export const appliedEnvironment: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('containers').addColumn('applied_environment', 'text').execute();
  },
};
