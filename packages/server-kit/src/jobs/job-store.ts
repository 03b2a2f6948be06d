import type { ClaimedJob, ExpiredJob, JobId, JobProgress, JobStatus, JobStatusRow } from './types.ts';

/** What the event bus and the streams read back: a job's output rows, its status and its progress. */
export interface JobReader<Id extends JobId = number> {
  rows(jobId: Id, page: { afterId: number; limit: number }): Promise<JobStatusRow<Id>[]>;
  statusOf(jobId: Id): Promise<JobStatus | undefined>;
  /** For jobs that report progress (JobContext.progress). */
  progressOf?(jobId: Id): Promise<JobProgress | undefined>;
}

/**
 * A service's job table, as the worker uses it. Every write that ends or moves a running job is
 * conditional on the lease `owner`, so a worker that lost a job writes nothing more to it.
 */
export interface JobStore<Id extends JobId = number> extends JobReader<Id> {
  /**
   * Takes the oldest pending job among `commands` under a lease of `leaseMs`, counting an attempt; none
   * of `skipLanes` (lanes whose share of this worker is taken). A store may also pass over a job whose
   * fairness key (a user, a project) already runs its share in every process.
   */
  claim(
    owner: string,
    commands: string[],
    leaseMs: number,
    options?: { skipLanes: readonly string[] },
  ): Promise<ClaimedJob<Id> | undefined>;
  /** Extends the leases `owner` still holds; returns the ids it no longer holds (cancelled or taken). */
  heartbeat(owner: string, ids: Id[], leaseMs: number): Promise<Id[]>;
  /** Running jobs whose lease ran out. */
  expired(): Promise<ExpiredJob<Id>[]>;
  /** Moves an expired lease to `owner`; false when another worker was first. */
  takeOver(id: Id, owner: string, leaseMs: number): Promise<boolean>;
  /** Ends a running job of `owner` (`error`: why it failed); false when it was no longer theirs. */
  finish(id: Id, owner: string, status: 'success' | 'failure', error?: string): Promise<boolean>;
  /** Puts a running job of `owner` back in the queue; `started: false` gives back its attempt. */
  requeue(id: Id, owner: string, options?: { started?: boolean }): Promise<boolean>;
  /** Appends one line to the job's output. */
  appendOutput(id: Id, line: string): Promise<unknown>;
}
