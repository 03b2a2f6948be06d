export const JOB_STATUSES = ['pending', 'running', 'success', 'failure', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const isFinished = (status: JobStatus) => status !== 'pending' && status !== 'running';

export interface Job {
  id: number;
  command: string;
  status: JobStatus;
  /** The creator's username (a label). */
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** A job of one container, as its page lists it. */
export interface ContainerJob extends Omit<Job, 'createdBy'> {
  finishedAt: string | null;
}

/** A job with its creator's uidNumber: who may see it besides administrators. */
export interface JobRecord extends Job {
  createdByUid: number;
}

/** A job as the worker sees it. */
export interface ClaimedJob extends Omit<Job, 'createdBy'> {
  payload: unknown;
  attempts: number;
}

export interface JobStatusRow {
  id: number;
  jobId: number;
  output: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What subscribers of one job hear: an output row as it is written, or the job's new status. */
export type JobEvent =
  { kind: 'row'; row: JobStatusRow } | { kind: 'status'; jobId: number; status: JobStatus };
