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
}

/** A job of one container, as its page lists it. */
export interface ContainerJob extends Omit<Job, 'createdBy'> {
  finishedAt: string | null;
}

/** A job with its creator's uidNumber: who may see it besides administrators. */
export interface JobRecord extends Job {
  createdByUid: number;
}
