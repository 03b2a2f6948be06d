import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `jobs_one_active_power`: at most one pending or running start or stop per container, so two
 * requests racing each other cannot both queue one (the second gets 409 conflict). Partial indexes are
 * written the same on SQLite and PostgreSQL.
 */
export const oneActivePowerJob: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create unique index jobs_one_active_power on jobs (container_id)
      where command in ('container.start', 'container.stop') and status in ('pending', 'running')`.execute(
      db,
    );
  },
};
