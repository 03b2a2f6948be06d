import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '@app/server-kit';

/**
 * `jobs.container_id`: the container a container job is for (NULL for other jobs). No foreign key: a
 * job keeps naming its container after the container is deleted, as history. Earlier container jobs
 * are filled from their payload, which JSON.stringify wrote with `containerId` as its first key.
 */
export const jobContainer = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('jobs').addColumn('container_id', 'integer').execute();
    await db.schema.createIndex('jobs_container').on('jobs').columns(['container_id', 'id']).execute();
    const prefix = '{"containerId":';
    // SQLite's cast reads the leading digits and stops at the `,` or `}` after them (0: no digits).
    const named =
      dialect === 'postgres'
        ? sql`cast(substring(payload from '^\\{"containerId":([0-9]{1,9})[,}]') as integer)`
        : sql`nullif(cast(substr(payload, ${prefix.length + 1}) as integer), 0)`;
    await sql`update jobs set container_id = ${named} where payload like ${`${prefix}%`}`.execute(db);
  },
});
