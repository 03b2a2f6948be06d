import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `jobs.lane`: the lane a job was queued in (NULL: the general lane of creates, deletes and the other
 * provisioning jobs). A lane's jobs get a share of each worker and, per creator and per container, of
 * all workers together (JobsRepository.claim). Commands run in containers are the `exec` lane.
 */
export const jobLanes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('jobs').addColumn('lane', 'text').execute();
    await sql`update jobs set lane = 'exec' where command = 'container.exec'`.execute(db);
  },
};
