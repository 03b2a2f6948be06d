import type { ClaimedJob, JobId, JobProgress } from './types.ts';

/** What a handler gets besides its payload when it undoes a dead run (see JobHandler.abandon). */
export interface JobLogContext {
  signal: AbortSignal;
  /** Appends one line to the job output (streamed to subscribers as it is written). */
  log(line: string): Promise<void>;
}

export interface JobContext<Id extends JobId = number> extends JobLogContext {
  job: ClaimedJob<Id>;
  /** The lease owner: a handler's own writes made conditional on it land only while the run holds the job. */
  owner: string;
  /** Tells the job's subscribers how far it has got (after the progress is stored). */
  progress(progress: JobProgress): Promise<void>;
}

/** A typed job handler: no shell strings, a payload it understands, and how it behaves on recovery. */
export interface JobHandler<P = unknown, Id extends JobId = number> {
  run(payload: P, ctx: JobContext<Id>): Promise<void>;
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
  abandon?(payload: P, ctx: JobLogContext): Promise<void>;
}

export class JobHandlers<Id extends JobId = number> {
  private readonly handlers = new Map<string, JobHandler<never, Id>>();

  register<P>(command: string, handler: JobHandler<P, Id>): void {
    if (this.handlers.has(command)) throw new Error(`job handler "${command}" is already registered`);
    this.handlers.set(command, handler as JobHandler<never, Id>);
  }

  get(command: string): JobHandler<unknown, Id> | undefined {
    return this.handlers.get(command) as JobHandler<unknown, Id> | undefined;
  }

  commands(): string[] {
    return [...this.handlers.keys()];
  }
}
