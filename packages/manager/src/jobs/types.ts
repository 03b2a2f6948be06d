import type { JobStatus } from '@app/server-kit';

export type { JobStatus };

export interface Job {
  id: number;
  command: string;
  status: JobStatus;
  /** The creator's username (a label). */
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** What the job answers, for the commands whose answer its readers may see: container.exec's. */
  result?: { exitCode: number };
}

/** A job of one container, as its page lists it. */
export interface ContainerJob extends Omit<Job, 'createdBy'> {
  finishedAt: string | null;
}

/** A job with its creator's uidNumber: who may see it besides administrators. */
export interface JobRecord extends Omit<Job, 'result'> {
  createdByUid: number;
  /** jobs.result, parsed; null when the job answers nothing (yet). */
  result: unknown;
}
