import type { AuditLog } from '../audit/audit-log.ts';
import { notFound, type JobStatusRow } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';
import type { JobsRepository } from './jobs-repository.ts';
import type { Job, JobRecord } from './types.ts';
import { fail } from '../errors/catalogue.ts';

const jobNotFound = () => notFound('Job not found.');

/**
 * The commands whose result the job's readers see. Not every result is for them: a delete's holds the
 * node's own words, which only administrators are shown.
 */
const READABLE_RESULTS = new Set(['container.exec']);

/** Who may see which job (its creator and admins; everyone else gets 404), and the job lifecycle calls. */
export class JobsService {
  constructor(
    readonly repo: JobsRepository,
    private readonly audit: AuditLog,
  ) {}

  /** A new pending job; `createdBy` is the creator's uidNumber. */
  enqueue<P>(command: string, payload: P, createdBy: number): Promise<{ id: number }> {
    return this.repo.create(command, createdBy, payload);
  }

  async getFor(principal: Principal, id: number): Promise<Job> {
    const { createdByUid: _internal, result, ...job } = await this.visible(principal, id);
    return READABLE_RESULTS.has(job.command) && result !== null
      ? { ...job, result: result as Job['result'] }
      : job;
  }

  private async visible(principal: Principal, id: number): Promise<JobRecord> {
    const job = await this.repo.get(id);
    if (!job || (!principal.isAdmin && job.createdByUid !== principal.uidNumber)) throw jobNotFound();
    return job;
  }

  async rowsFor(principal: Principal, id: number, offset: number, limit: number): Promise<JobStatusRow[]> {
    await this.getFor(principal, id);
    return this.repo.rows(id, { offset, limit });
  }

  async cancel(principal: Principal, id: number): Promise<Job> {
    await this.visible(principal, id);
    if (!(await this.repo.cancel(id, (trx) => this.audit.within(trx))))
      throw fail('job_finished', 'The job has already finished.');
    return this.getFor(principal, id);
  }
}
