import { conflict, notFound } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';
import type { JobsRepository } from './jobs-repository.ts';
import type { Job, JobStatusRow } from './types.ts';

const jobNotFound = () => notFound('Job not found.');

/** Who may see which job (its creator and admins; everyone else gets 404), and the job lifecycle calls. */
export class JobsService {
  constructor(readonly repo: JobsRepository) {}

  enqueue<P>(command: string, payload: P, createdBy: string): Promise<Job> {
    return this.repo.create(command, createdBy, payload);
  }

  async getFor(principal: Principal, id: number): Promise<Job> {
    const job = await this.repo.get(id);
    if (!job || (!principal.isAdmin && job.createdBy !== principal.uid)) throw jobNotFound();
    return job;
  }

  async rowsFor(principal: Principal, id: number, offset: number, limit: number): Promise<JobStatusRow[]> {
    await this.getFor(principal, id);
    return this.repo.rows(id, { offset, limit });
  }

  async cancel(principal: Principal, id: number): Promise<Job> {
    await this.getFor(principal, id);
    const job = await this.repo.cancel(id);
    if (!job) throw conflict('The job has already finished.', undefined, 'job_finished');
    return job;
  }
}
