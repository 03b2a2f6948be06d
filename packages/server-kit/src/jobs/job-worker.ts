import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { retryWhileUnavailable } from '../errors.ts';
import type { JobStore } from './job-store.ts';
import type { JobEvents } from './job-events.ts';
import type { JobContext, JobHandler, JobHandlers } from './handlers.ts';
import { JobCancelledError, JobTimeoutError, LeaseLostError, WorkerShutdownError } from './errors.ts';
import type { ClaimedJob, ExpiredJob, JobId, JobOutcome, JobProgress } from './types.ts';

export interface WorkerOptions {
  concurrency: number;
  /** A job whose lease is not renewed within this time is recovered by any worker. */
  leaseMs: number;
  heartbeatMs: number;
  /** Fallback poll for new and expired jobs (new jobs normally wake the worker at once). */
  pollMs: number;
  defaultTimeoutMs: number;
  /** Runs of one job (takeovers included) before it is failed. */
  maxAttempts: number;
  /**
   * The most jobs of each named lane this worker runs at once; the rest of `concurrency` stays for
   * the other lanes, so their jobs never wait behind a lane's long ones.
   */
  lanes?: Readonly<Record<string, number>>;
}

/** Observes each run's duration and outcome (the service's metrics). */
export interface JobMetrics {
  jobFinished(command: string, outcome: JobOutcome, seconds: number): void;
}

interface Running<Id extends JobId> {
  job: ClaimedJob<Id>;
  controller: AbortController;
  done: Promise<void>;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Claims jobs with a lease, renews it with a heartbeat, runs the typed handler with an AbortSignal
 * (cancellation, timeout, lost lease, shutdown), and recovers jobs whose worker died.
 */
export class JobWorker<Id extends JobId = number> {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly running = new Map<Id, Running<Id>>();
  /** Jobs this worker ran whose outcome it could not record (the database stayed out of reach). */
  private readonly unrecorded = new Set<Id>();
  /** Jobs of dead workers this worker took over and is undoing (their lease is renewed meanwhile). */
  private readonly abandoning = new Set<Id>();
  private started = false;
  private pumping = false;
  private again = false;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribeNew: (() => void) | undefined;

  constructor(
    private readonly repo: JobStore<Id>,
    private readonly events: JobEvents<Id>,
    private readonly handlers: JobHandlers<Id>,
    private readonly options: WorkerOptions,
    private readonly log: FastifyBaseLogger,
    private readonly metrics?: JobMetrics,
  ) {}

  get activeJobs(): Id[] {
    return [...this.running.keys()];
  }

  start() {
    if (this.started) return;
    this.started = true;
    this.unsubscribeNew = this.events.onNewJob(() => this.wake());
    const every = (ms: number, task: () => Promise<void>) => {
      const timer = setInterval(
        () => void task().catch((error: unknown) => this.log.warn({ err: error }, 'job worker task failed')),
        ms,
      );
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.heartbeatMs, () => this.heartbeat());
    every(this.options.pollMs, async () => {
      await this.recoverExpired();
      this.wake();
    });
    void this.recoverExpired()
      .catch((error: unknown) => this.log.warn({ err: error }, 'job recovery failed'))
      .finally(() => this.wake());
  }

  /** Stops claiming; lets running jobs finish for `graceMs`, then aborts them (requeued or failed). */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.unsubscribeNew?.();
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    const all = () => Promise.allSettled([...this.running.values()].map((entry) => entry.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    for (const entry of this.running.values()) entry.controller.abort(new WorkerShutdownError());
    await all();
  }

  /** Claims while there are free slots; concurrent wake-ups coalesce into one more pass. */
  wake() {
    if (!this.started) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void (async () => {
      try {
        do {
          this.again = false;
          while (this.started && this.running.size < this.options.concurrency) {
            const job = await this.repo.claim(this.owner, this.handlers.commands(), this.options.leaseMs, {
              skipLanes: this.fullLanes(),
            });
            if (!job) break;
            this.launch(job);
          }
        } while (this.again && this.started);
      } catch (error) {
        this.log.warn({ err: error }, 'job claim failed');
      } finally {
        this.pumping = false;
      }
    })();
  }

  private fullLanes(): string[] {
    const lanes = Object.entries(this.options.lanes ?? {});
    if (!lanes.length) return [];
    const running = [...this.running.values()].map((entry) => entry.job.lane);
    return lanes.flatMap(([lane, slots]) =>
      running.filter((held) => held === lane).length >= slots ? [lane] : [],
    );
  }

  private launch(job: ClaimedJob<Id>) {
    const controller = new AbortController();
    const entry: Running<Id> = { job, controller, done: Promise.resolve() };
    this.running.set(job.id, entry);
    entry.done = this.run(job, controller).finally(() => {
      this.running.delete(job.id);
      this.wake();
    });
  }

  private async run(job: ClaimedJob<Id>, controller: AbortController) {
    const handler = this.handlers.get(job.command)!;
    const timeoutMs = handler.timeoutMs ?? this.options.defaultTimeoutMs;
    const timer = setTimeout(() => controller.abort(new JobTimeoutError(timeoutMs)), timeoutMs);
    const unsubscribe = this.events.subscribe(job.id, (event) => {
      if (event.kind === 'status' && event.status === 'cancelled') controller.abort(new JobCancelledError());
    });
    const log = async (line: string) => {
      // A job waits out a short database outage rather than failing on its own output.
      await retryWhileUnavailable(() => this.repo.appendOutput(job.id, line));
      // A handler that logs in a tight loop would otherwise run on microtasks alone (SQLite answers
      // without I/O) and starve the socket writes that carry its rows to stream clients.
      await new Promise<void>((resolve) => setImmediate(resolve));
    };
    const progress = (value: JobProgress) =>
      // Subscribers also re-read it; a lost announcement must not fail the job.
      this.events.announce({ kind: 'progress', jobId: job.id, progress: value }).catch((error: unknown) => {
        this.log.warn({ err: error, jobId: job.id }, 'job progress announcement failed');
      });
    const ctx: JobContext<Id> = { job, owner: this.owner, signal: controller.signal, log, progress };
    this.log.info({ jobId: job.id, command: job.command, attempt: job.attempts }, 'job started');
    const started = performance.now();
    let outcome: JobOutcome = 'failure';
    try {
      if (job.attempts > 1) await log(`Resuming on worker ${this.owner} (attempt ${job.attempts}).`);
      await handler.run(job.payload, ctx);
      if (controller.signal.aborted) throw controller.signal.reason;
      await retryWhileUnavailable(() => this.repo.finish(job.id, this.owner, 'success'));
      outcome = 'success';
    } catch (thrown) {
      const reason = controller.signal.aborted ? controller.signal.reason : thrown;
      if (reason instanceof JobCancelledError) outcome = 'cancelled';
      await retryWhileUnavailable(() =>
        this.settleFailure(job, reason, handler.retryOnTakeover === true),
      ).catch((error: unknown) => {
        this.unrecorded.add(job.id);
        this.log.error({ err: error, jobId: job.id }, 'could not record the end of a job');
      });
    } finally {
      clearTimeout(timer);
      unsubscribe();
      this.metrics?.jobFinished(job.command, outcome, (performance.now() - started) / 1000);
    }
  }

  private async settleFailure(job: ClaimedJob<Id>, reason: unknown, retryable: boolean) {
    if (reason instanceof JobCancelledError || reason instanceof LeaseLostError) {
      // Already cancelled (status written by the canceller) or owned by another worker now.
      await this.repo.appendOutput(job.id, reason.message);
      return;
    }
    if (reason instanceof WorkerShutdownError && retryable && job.attempts < this.options.maxAttempts) {
      await this.repo.appendOutput(job.id, `${reason.message} It will run again on another worker.`);
      await this.repo.requeue(job.id, this.owner);
      return;
    }
    if (!(reason instanceof JobTimeoutError || reason instanceof WorkerShutdownError)) {
      this.log.warn({ err: reason, jobId: job.id, command: job.command }, 'job failed');
    }
    await this.repo.appendOutput(job.id, `Error: ${describe(reason)}`);
    await this.repo.finish(job.id, this.owner, 'failure', describe(reason));
  }

  private async heartbeat() {
    const held = [...this.activeJobs, ...this.abandoning];
    const lost = await this.repo.heartbeat(this.owner, held, this.options.leaseMs);
    for (const id of lost) {
      const entry = this.running.get(id);
      if (!entry || entry.controller.signal.aborted) continue;
      const status = await this.repo.statusOf(id);
      entry.controller.abort(status === 'cancelled' ? new JobCancelledError() : new LeaseLostError());
    }
  }

  /** Jobs left `running` by a dead worker: run again when safe and attempts remain, else failed. */
  async recoverExpired(): Promise<void> {
    for (const job of await this.repo.expired()) {
      if (this.running.has(job.id) || this.abandoning.has(job.id)) continue;
      if (job.leaseOwner === this.owner && !this.unrecorded.has(job.id)) {
        // Claimed by this worker, which never ran it: the claim's answer was lost (the database went away
        // just after it). It never started, so it simply goes back to the queue.
        if (await this.repo.requeue(job.id, this.owner, { started: false }))
          this.log.warn({ jobId: job.id }, 'requeued a lost claim');
        continue;
      }
      // Take the lease first, so exactly one worker writes the explanation and the outcome.
      if (!(await this.repo.takeOver(job.id, this.owner, this.options.leaseMs))) continue;
      const handler = this.handlers.get(job.command);
      if (handler?.retryOnTakeover && job.attempts < this.options.maxAttempts) {
        await this.repo.appendOutput(
          job.id,
          'The worker running this job stopped responding; the job was queued again.',
        );
        await this.repo.requeue(job.id, this.owner);
        this.log.warn({ jobId: job.id }, 'requeued a job whose worker died');
      } else {
        if (handler?.abandon) await this.abandon(job, handler);
        const error = 'the worker running this job stopped responding; the job failed.';
        await this.repo.appendOutput(job.id, `Error: ${error}`);
        await this.repo.finish(job.id, this.owner, 'failure', error);
        this.log.warn({ jobId: job.id }, 'failed a job whose worker died');
      }
    }
  }

  /** Runs the handler's undo for a job of a dead worker; its failure is told in the job output. */
  private async abandon(job: ExpiredJob<Id>, handler: JobHandler<unknown, Id>) {
    const timeoutMs = handler.timeoutMs ?? this.options.defaultTimeoutMs;
    const log = async (line: string) => {
      await retryWhileUnavailable(() => this.repo.appendOutput(job.id, line));
    };
    this.abandoning.add(job.id);
    try {
      await log('The worker running this job stopped responding; undoing what it did.');
      await handler.abandon!(job.payload, { signal: AbortSignal.timeout(timeoutMs), log });
    } catch (error) {
      this.log.warn({ err: error, jobId: job.id }, 'could not undo a job whose worker died');
      await log(`Error: ${describe(error)}`);
    } finally {
      this.abandoning.delete(job.id);
    }
  }
}
