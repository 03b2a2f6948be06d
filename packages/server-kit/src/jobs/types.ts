export const JOB_STATUSES = ['pending', 'running', 'success', 'failure', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const isFinished = (status: JobStatus) => status !== 'pending' && status !== 'running';

/** A job id: the manager numbers its jobs, the translator names its AI jobs with UUIDs. */
export type JobId = number | string;

/** How a job run ended, as the worker saw it (the metrics label). */
export type JobOutcome = 'success' | 'failure' | 'cancelled';

/** A job as the worker sees it once claimed. */
export interface ClaimedJob<Id extends JobId = number> {
  id: Id;
  command: string;
  payload: unknown;
  /** Runs of this job so far, this one included. */
  attempts: number;
  /** The lane the service queued it in (WorkerOptions.lanes); none: the general lane. */
  lane?: string | undefined;
}

/** A running job whose lease ran out; `leaseOwner` is the worker that held it. */
export interface ExpiredJob<Id extends JobId = number> extends ClaimedJob<Id> {
  leaseOwner: string | null;
}

/** One line of a job's output, in write order (`id` grows). */
export interface JobStatusRow<Id extends JobId = number> {
  id: number;
  jobId: Id;
  output: string | null;
  createdAt: string;
  updatedAt: string;
}

/** How far a job that works through items has got. */
export interface JobProgress {
  total: number;
  completed: number;
  failed: number;
}

/** What subscribers of one job hear: an output row as it is written, its progress, or its new status. */
export type JobEvent<Id extends JobId = number> =
  | { kind: 'row'; row: JobStatusRow<Id> }
  | { kind: 'progress'; jobId: Id; progress: JobProgress }
  | { kind: 'status'; jobId: Id; status: JobStatus };
