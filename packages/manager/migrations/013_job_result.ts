import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `jobs.result`: what a job answers its caller with (JSON; NULL for jobs that answer nothing), read by
 * a request that waits for its job (container delete). `jobs_one_active_delete`: at most one pending or
 * running delete per container, so a second DELETE joins the first one's job instead of racing it.
 * Partial indexes are written the same on SQLite and PostgreSQL.
 */
export const jobResult: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('jobs').addColumn('result', 'text').execute();
    await sql`
      create unique index jobs_one_active_delete on jobs (container_id)
      where command = 'container.delete' and status in ('pending', 'running')`.execute(db);
  },
};
