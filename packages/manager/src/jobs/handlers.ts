import type { OperationContext } from '../providers/types.ts';
import type { ClaimedJob } from './types.ts';

export interface JobContext extends OperationContext {
  job: ClaimedJob;
}

/** A typed job handler: no shell strings, a payload it understands, and how it behaves on recovery. */
export interface JobHandler<P = unknown> {
  run(payload: P, ctx: JobContext): Promise<void>;
  /** Upper bound on one run; the worker's default applies when absent. */
  timeoutMs?: number;
  /**
   * When its worker dies, may another worker run the job again from the start? Only for idempotent
   * work; otherwise the job is failed (never left running).
   */
  retryOnTakeover?: boolean;
  /**
   * For a job that is failed when its worker dies: undoes what the dead run left. The worker taking the
   * job over runs it before failing the job; what it logs goes to the job output.
   */
  abandon?(payload: P, ctx: OperationContext): Promise<void>;
}

export class JobHandlers {
  private readonly handlers = new Map<string, JobHandler<never>>();

  register<P>(command: string, handler: JobHandler<P>): void {
    if (this.handlers.has(command)) throw new Error(`job handler "${command}" is already registered`);
    this.handlers.set(command, handler as JobHandler<never>);
  }

  get(command: string): JobHandler<unknown> | undefined {
    return this.handlers.get(command) as JobHandler<unknown> | undefined;
  }

  commands(): string[] {
    return [...this.handlers.keys()];
  }
}

export class JobCancelledError extends Error {
  override name = 'JobCancelledError';
  constructor() {
    super('The job was cancelled.');
  }
}

export class JobTimeoutError extends Error {
  override name = 'JobTimeoutError';
  constructor(ms: number) {
    super(`The job ran longer than ${Math.round(ms / 1000)} s and was stopped.`);
  }
}

export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  constructor() {
    super('This worker lost the job to another worker.');
  }
}

export class WorkerShutdownError extends Error {
  override name = 'WorkerShutdownError';
  constructor() {
    super('The worker shut down while the job was running.');
  }
}
