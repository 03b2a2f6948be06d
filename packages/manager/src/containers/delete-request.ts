import { isFinished, uniqueViolationColumns, type JobEvents, type JobStatus } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';
import type { JobsRepository } from '../jobs/jobs-repository.ts';
import { fail } from '../errors/catalogue.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { ContainersService } from './containers-service.ts';
import { CONTAINER_COMMANDS } from './container-jobs.ts';
import {
  beingCreated,
  DELETE_TIMEOUT_MS,
  type ContainerDeletePayload,
  type ContainerDeleteResult,
} from './container-delete.ts';

/** Past the job's own timeout: a worker that took the job has ended it by then (or died, and lost it). */
const WAIT_MS = DELETE_TIMEOUT_MS + 30_000;

/**
 * DELETE of a container: the rights are checked here, the work is the delete job's (a worker's, in
 * this process or another). The request waits for the job through the event bus and answers with its
 * result; a client that goes away leaves the job running. A DELETE while one is queued or running
 * joins that job.
 */
export class DeleteRequests {
  private readonly waiting = new Set<() => void>();

  constructor(
    private readonly containers: ContainersService,
    private readonly jobs: JobsRepository,
    private readonly events: JobEvents,
    private readonly audit: AuditLog,
  ) {}

  async delete(principal: Principal, siteId: number, id: number) {
    const record = await this.containers.record(principal, siteId, id, 'manage');
    if (record.creationJobStatus === 'running') throw fail('conflict', beingCreated(record));
    const jobId = await this.jobOf(principal, record.id);
    const status = await this.end(jobId);
    const result = await this.jobs.resultOf<ContainerDeleteResult>(jobId);
    if (status === 'success' && result?.deleted) return result;
    if (result && !result.deleted) {
      throw fail(result.code, principal.isAdmin && result.detail ? result.detail : result.message);
    }
    if (status === 'cancelled') throw fail('conflict', `The delete (job ${jobId}) was cancelled.`);
    if (!status) {
      throw fail(
        'service_unavailable',
        `The delete (job ${jobId}) has not finished yet; its outcome shows in the container's jobs.`,
      );
    }
    throw fail('provider_error', `The delete (job ${jobId}) failed; its output tells why.`);
  }

  /** The queued or running delete of the container, else a new one, which writes this request's entry. */
  private async jobOf(principal: Principal, containerId: number): Promise<number> {
    for (;;) {
      const active = await this.jobs.activeFor([CONTAINER_COMMANDS.delete], containerId);
      if (active) return active;
      try {
        const payload: ContainerDeletePayload = { containerId, audit: this.audit.carry() };
        const job = await this.jobs.create(CONTAINER_COMMANDS.delete, principal.uidNumber, payload);
        this.audit.handedOff();
        return job.id;
      } catch (error) {
        // Another request queued it between the two statements: join that one.
        if (!uniqueViolationColumns(error)?.includes('container_id')) throw error;
      }
    }
  }

  /** Answers every waiting request now (the server is shutting down); their jobs go on. */
  stopWaiting(): void {
    for (const stop of [...this.waiting]) stop();
  }

  /** The job's final status, or undefined when it has not ended within WAIT_MS (or stopWaiting). */
  private end(jobId: number): Promise<JobStatus | undefined> {
    return new Promise((resolve, reject) => {
      const settle = (finish: () => void) => {
        if (!this.waiting.delete(stop)) return;
        clearTimeout(timer);
        unsubscribe();
        finish();
      };
      const stop = () => settle(() => resolve(undefined));
      this.waiting.add(stop);
      const timer = setTimeout(stop, WAIT_MS);
      const unsubscribe = this.events.subscribe(jobId, (event) => {
        if (event.kind === 'status' && isFinished(event.status)) settle(() => resolve(event.status));
      });
      // Subscribed first, so an end between the two is heard either way.
      this.jobs.statusOf(jobId).then(
        (status) => {
          if (status && isFinished(status)) settle(() => resolve(status));
        },
        (error: unknown) => settle(() => reject(error)),
      );
    });
  }
}
