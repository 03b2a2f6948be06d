import type { Principal } from '../auth/principal.ts';
import type { ContainerJob } from '../jobs/types.ts';
import { fail } from '../errors/catalogue.ts';
import { CONTAINER_COMMANDS, type ContainerCreatePayload } from './container-jobs.ts';
import type { ContainerDeps, ContainersService } from './containers-service.ts';

const LISTED_JOBS = 20;
const FAILURE_LINES = 8;

/**
 * A container job with the end of its output when it failed, for those who may read its log (its
 * creator and administrators: what a node said may name the node's address).
 */
export type ContainerJobEntry = ContainerJob & { lastOutput: string[] | null };

/** The jobs of one container and a second try of its failed create. */
export class ContainerHistory {
  constructor(
    private readonly deps: ContainerDeps,
    private readonly containers: ContainersService,
  ) {}

  async jobsOf(principal: Principal, siteId: number, id: number): Promise<ContainerJobEntry[]> {
    const record = await this.containers.record(principal, siteId, id, 'read');
    const { jobs } = this.deps;
    const listed = await jobs.forContainer(Object.values(CONTAINER_COMMANDS), record.id, LISTED_JOBS);
    const readable = listed.filter(
      (job) => job.status === 'failure' && (principal.isAdmin || job.createdByUid === principal.uidNumber),
    );
    const last = await jobs.lastRowsOf(
      readable.map((job) => job.id),
      FAILURE_LINES,
    );
    return listed.map(({ createdByUid: _internal, ...job }) => ({
      ...job,
      lastOutput: last.get(job.id)?.map((row) => row.output ?? '') ?? null,
    }));
  }

  /** Enqueues the create again for the same record (addresses and services stay as they were). */
  async retryCreate(principal: Principal, siteId: number, id: number) {
    const record = await this.containers.record(principal, siteId, id, 'manage');
    const failed = record.creationJobStatus === 'failure' || record.creationJobStatus === 'cancelled';
    if (record.containerId || !record.creationJobId || !failed) {
      throw fail('create_not_failed', 'Only a container whose create failed can be created again.');
    }
    const { db, repo, jobs } = this.deps;
    const previous = record.creationJobId;
    const payload: ContainerCreatePayload = { containerId: record.id };
    const jobId = await db.transaction().execute(async (trx) => {
      const job = await jobs.insertIn(trx, CONTAINER_COMMANDS.create, principal.uidNumber, payload);
      if (!(await repo.replaceCreationJob(trx, record.id, previous, job.id))) {
        throw fail('create_not_failed', 'The container was changed meanwhile: reload it.');
      }
      await this.deps.audit.within(trx);
      return job.id;
    });
    await jobs.announceNew(jobId);
    return { containerId: record.id, jobId, hostname: record.hostname, status: 'creating' as const };
  }
}
