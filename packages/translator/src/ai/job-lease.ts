import { randomUUID } from 'node:crypto';
import type { TranslatorContext } from '../context.ts';
import type { AiJobsRepository, JobHold } from './ai-jobs-repository.ts';

/**
 * One claim of a job by this process. The claim writes a token of its own into `lease_owner`, and every
 * later write of the run is conditional on that token, so a run that lost the job (cancelled, or taken
 * over after its lease ran out) writes nothing more. While the job runs the lease is renewed on a timer,
 * three times per lease period, so a provider call longer than the lease does not let anyone take the
 * job over; a renewal that finds the job gone marks the lease lost and aborts the calls in flight.
 */
export class JobLease implements JobHold {
  readonly token = randomUUID();
  readonly controller = new AbortController();
  /** The job is no longer this run's (cancelled or taken over). */
  lost = false;
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;

  constructor(
    private readonly ctx: TranslatorContext,
    private readonly jobs: AiJobsRepository,
    readonly jobId: string,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** pending → running under this lease, unless the project already runs its cap of jobs. */
  claim(projectId: number): Promise<boolean> {
    const { ai } = this.ctx.config;
    return this.jobs.claim(this, projectId, Date.now() + ai.leaseMs, ai.jobsPerProject);
  }

  /** Renews the lease from now on until stop(). */
  keepAlive() {
    this.timer = setInterval(
      () => void this.renew(),
      Math.max(50, Math.floor(this.ctx.config.ai.leaseMs / 3)),
    );
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
  }

  private async renew() {
    if (this.renewing || this.lost) return;
    this.renewing = true;
    try {
      if (!(await this.jobs.renew(this, Date.now() + this.ctx.config.ai.leaseMs))) this.markLost();
    } catch (error) {
      // The database may be back before the lease runs out; if not, the next owned write decides.
      this.ctx.log.warn({ err: error, jobId: this.jobId }, 'AI job lease renewal failed');
    } finally {
      this.renewing = false;
    }
  }

  markLost() {
    if (this.lost) return;
    this.lost = true;
    this.stop();
    this.controller.abort();
  }
}
