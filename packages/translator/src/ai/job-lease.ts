import { randomUUID } from 'node:crypto';
import { sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { TranslatorDB } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import { nowIso } from '../common/time.ts';

type JobUpdate = UpdateQueryBuilder<TranslatorDB, 'ai_jobs', 'ai_jobs', UpdateResult>;

/**
 * One claim of a job by this process. The claim writes a token of its own into `lease_owner`, and every
 * later write of the run is conditional on that token, so a run that lost the job (cancelled, or taken
 * over after its lease ran out) writes nothing more. While the job runs the lease is renewed on a timer,
 * three times per lease period, so a provider call longer than the lease does not let anyone take the
 * job over; a renewal that finds the job gone marks the lease lost and aborts the calls in flight.
 */
export class JobLease {
  readonly token = randomUUID();
  readonly controller = new AbortController();
  /** The job is no longer this run's (cancelled or taken over). */
  lost = false;
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;

  constructor(
    private readonly ctx: TranslatorContext,
    readonly jobId: string,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** pending → running under this lease, unless the project already runs its cap of jobs. */
  async claim(projectId: number): Promise<boolean> {
    const { ai } = this.ctx.config;
    const claimed = await this.ctx.db
      .updateTable('ai_jobs')
      .set({
        status: 'running',
        lease_owner: this.token,
        lease_until: Date.now() + ai.leaseMs,
        started_at: sql`coalesce(started_at, ${nowIso()})`,
        updated_at: nowIso(),
      })
      .where('id', '=', this.jobId)
      .where('status', '=', 'pending')
      .where(
        (eb) =>
          eb
            .selectFrom('ai_jobs as other')
            .select((inner) => inner.fn.countAll<number>().as('n'))
            .where('other.project_id', '=', projectId)
            .where('other.status', '=', 'running'),
        '<',
        ai.jobsPerProject,
      )
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  /** Restricts an update of `ai_jobs` to this lease's job while this lease still holds it. */
  owned(query: JobUpdate): JobUpdate {
    return query
      .where('id', '=', this.jobId)
      .where('status', '=', 'running')
      .where('lease_owner', '=', this.token);
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
      const result = await this.owned(
        this.ctx.db.updateTable('ai_jobs').set({ lease_until: Date.now() + this.ctx.config.ai.leaseMs }),
      ).executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) this.markLost();
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
