import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { AiJobsTable } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import { chunks } from '../common/chunks.ts';
import { nowIso } from '../common/time.ts';
import { languageName } from '../projects/languages.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { PromptsService } from './prompts-service.ts';
import {
  ChatProvider,
  ProviderError,
  type BatchItem,
  type BatchRequest,
  type BatchResult,
} from './provider.ts';

/** The job was cancelled or taken over while a batch was in flight: its results are dropped. */
class JobLost extends Error {}

interface WorkItem {
  phraseId: number;
  key: string;
}

interface RunState {
  job: Selectable<AiJobsTable>;
  apiKey: string;
  prompt: string;
  signal: AbortSignal;
  /** run_ms when this process took the job, and when. */
  baseRunMs: number;
  segmentStart: number;
}

/**
 * Runs AI jobs in this process. A job is claimed with a conditional update (pending → running, with a
 * lease) that also enforces the per-project cap, so several processes can share the work; the lease is
 * renewed after every batch and a job whose lease ran out (its worker died) goes back to pending.
 * Progress is written per batch, and only pending items are sent, so a resumed job never repeats work.
 */
export class JobRunner {
  private readonly owner = randomUUID();
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly provider: ChatProvider;
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly ctx: TranslatorContext,
    private readonly projects: ProjectsService,
    private readonly prompts: PromptsService,
    private readonly onTranslated: (projectId: number) => void,
    private readonly pollMs = 1000,
  ) {
    this.provider = new ChatProvider(ctx.config.ai);
  }

  start() {
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Looks for work now (coalesced when a look is already under way). */
  kick() {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    this.tick()
      .catch((error: unknown) => this.ctx.log.error({ err: error }, 'AI job scheduling failed'))
      .finally(() => {
        this.ticking = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops taking work, aborts the calls in flight and hands this process's jobs back as pending. */
  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    for (const { controller } of this.running.values()) controller.abort();
    await Promise.all([...this.running.values()].map((entry) => entry.done));
    while (this.ticking) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private async tick() {
    const { db } = this.ctx;
    const now = Date.now();
    await db
      .updateTable('ai_jobs')
      .set({ status: 'pending', lease_owner: null, lease_until: null, updated_at: nowIso() })
      .where('status', '=', 'running')
      .where('lease_until', '<', now)
      .execute();
    const pending = await db
      .selectFrom('ai_jobs')
      .select(['id', 'project_id'])
      .where('status', '=', 'pending')
      .orderBy('created_at')
      .limit(100)
      .execute();
    for (const candidate of pending) {
      if (this.stopped) return;
      const claimed = await db
        .updateTable('ai_jobs')
        .set({
          status: 'running',
          lease_owner: this.owner,
          lease_until: Date.now() + this.ctx.config.ai.leaseMs,
          started_at: sql`coalesce(started_at, ${nowIso()})`,
          updated_at: nowIso(),
        })
        .where('id', '=', candidate.id)
        .where('status', '=', 'pending')
        .where(
          (eb) =>
            eb
              .selectFrom('ai_jobs as other')
              .select((inner) => inner.fn.countAll<number>().as('n'))
              .where('other.project_id', '=', candidate.project_id)
              .where('other.status', '=', 'running'),
          '<',
          this.ctx.config.ai.jobsPerProject,
        )
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 1) this.launch(candidate.id);
    }
  }

  private launch(jobId: string) {
    const controller = new AbortController();
    const done = this.run(jobId, controller.signal)
      .catch(async (error: unknown) => {
        this.ctx.log.error({ err: error, jobId }, 'AI job crashed');
        await this.finish(jobId, 'failed', `Internal error: ${(error as Error).message}`).catch(() => {});
      })
      .finally(() => {
        this.running.delete(jobId);
        this.kick();
      });
    this.running.set(jobId, { controller, done });
  }

  private async run(jobId: string, signal: AbortSignal) {
    const { db, config } = this.ctx;
    const job = await db.selectFrom('ai_jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
    const apiKey = await this.projects.providerKey(job.project_id);
    if (!apiKey) return this.finish(jobId, 'failed', 'The project has no translationProviderApiKey.');
    const prompt = await this.prompts.forJob(job.project_id, job.prompt_id);
    const rows = await db
      .selectFrom('ai_job_items as i')
      .leftJoin('phrases as p', (join) =>
        join.onRef('p.id', '=', 'i.phrase_id').on('p.project_id', '=', job.project_id),
      )
      .select(['i.phrase_id', 'p.key'])
      .where('i.job_id', '=', jobId)
      .where('i.state', '=', 'pending')
      .orderBy('i.phrase_id')
      .execute();
    const state: RunState = {
      job,
      apiKey,
      prompt: prompt.text,
      signal,
      baseRunMs: job.run_ms,
      segmentStart: Date.now(),
    };
    const gone = rows.filter((row) => row.key === null || row.key === undefined).map((row) => row.phrase_id);
    if (gone.length) {
      try {
        await this.record(state, new Map(), gone);
      } catch (error) {
        if (error instanceof JobLost) return;
        throw error;
      }
    }
    const batches = chunks(
      rows.flatMap((row) => (row.key ? [{ phraseId: row.phrase_id, key: row.key }] : [])),
      config.ai.batchSize,
    );

    let next = 0;
    let fatal: Error | undefined;
    let lost = false;
    const worker = async () => {
      while (!fatal && !lost && !signal.aborted && next < batches.length) {
        const batch = batches[next++]!;
        try {
          await this.runBatch(state, batch);
        } catch (error) {
          if (signal.aborted) return;
          if (error instanceof JobLost) {
            lost = true;
            return;
          }
          if (error instanceof ProviderError && error.retryable) {
            // Retries exhausted: these items fail, the job goes on.
            await this.record(
              state,
              new Map(),
              batch.map((item) => item.phraseId),
            );
          } else {
            fatal = error as Error;
          }
        }
        if (!(await this.heartbeat(state))) lost = true;
      }
    };
    await Promise.all(Array.from({ length: config.ai.parallelCalls }, worker));

    if (signal.aborted) {
      // Shutting down: hand the job back so this or another process resumes it.
      await db
        .updateTable('ai_jobs')
        .set({
          status: 'pending',
          lease_owner: null,
          lease_until: null,
          run_ms: this.runMs(state),
          updated_at: nowIso(),
        })
        .where('id', '=', jobId)
        .where('status', '=', 'running')
        .where('lease_owner', '=', this.owner)
        .execute();
      return;
    }
    if (lost) return; // cancelled (or taken over): whoever changed it owns the outcome
    if (fatal) return this.finish(jobId, 'failed', fatal.message, state);
    const final = await db
      .selectFrom('ai_jobs')
      .select(['completed', 'failed'])
      .where('id', '=', jobId)
      .executeTakeFirst();
    const allFailed = final !== undefined && final.completed === 0 && final.failed > 0;
    return this.finish(
      jobId,
      allFailed ? 'failed' : 'completed',
      allFailed ? 'Every item failed.' : null,
      state,
    );
  }

  /** One batch: a call (with retries), then one more call for the items it dropped or mangled. */
  private async runBatch(state: RunState, batch: WorkItem[]) {
    const items: BatchItem[] = batch.map((item) => ({ id: String(item.phraseId), text: item.key }));
    const request = (list: BatchItem[]): BatchRequest => ({
      apiKey: state.apiKey,
      lang: state.job.lang,
      languageName: languageName(state.job.lang),
      prompt: state.prompt,
      items: list,
      signal: state.signal,
    });
    const first = await this.provider.translateWithRetry(request(items));
    const translated = new Map(first.translated);
    if (first.rejected.length) {
      const again = new Set(first.rejected.map((item) => item.id));
      let second: BatchResult | undefined;
      try {
        second = await this.provider.translateWithRetry(request(items.filter((item) => again.has(item.id))));
      } catch (error) {
        if (!(error instanceof ProviderError) || !error.retryable) throw error;
      }
      for (const [id, text] of second?.translated ?? []) translated.set(id, text);
    }
    if (state.signal.aborted) return;
    const values = new Map([...translated].map(([id, text]) => [Number(id), text]));
    const failed = batch.map((item) => item.phraseId).filter((id) => !values.has(id));
    await this.record(state, values, failed);
  }

  /** Saves a batch's translations and item states and moves the counters, in one transaction. */
  private async record(state: RunState, values: Map<number, string>, failed: number[]) {
    const { job } = state;
    const now = nowIso();
    await this.ctx.db.transaction().execute(async (trx) => {
      const still = values.size
        ? await trx
            .selectFrom('phrases')
            .select('id')
            .where('project_id', '=', job.project_id)
            .where('id', 'in', [...values.keys()])
            .execute()
        : [];
      const saved = still.map((row) => row.id);
      const lostIds = [...values.keys()].filter((id) => !saved.includes(id));
      const failedIds = [...failed, ...lostIds];
      if (saved.length) {
        await trx
          .insertInto('translations')
          .values(
            saved.map((id) => ({
              project_id: job.project_id,
              phrase_id: id,
              lang: job.lang,
              value: values.get(id)!,
              created_at: now,
              updated_at: now,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['phrase_id', 'lang']).doUpdateSet((eb) => ({
              value: eb.ref('excluded.value'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
        await trx
          .updateTable('ai_job_items')
          .set({ state: 'done' })
          .where('job_id', '=', job.id)
          .where('phrase_id', 'in', saved)
          .execute();
      }
      if (failedIds.length) {
        await trx
          .updateTable('ai_job_items')
          .set({ state: 'failed' })
          .where('job_id', '=', job.id)
          .where('phrase_id', 'in', failedIds)
          .execute();
      }
      const moved = await trx
        .updateTable('ai_jobs')
        .set((eb) => ({
          completed: eb('completed', '+', saved.length),
          failed: eb('failed', '+', failedIds.length),
          run_ms: this.runMs(state),
          updated_at: now,
        }))
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('lease_owner', '=', this.owner)
        .executeTakeFirst();
      // Cancelled (or taken over) meanwhile: roll back, so nothing is written after a cancel.
      if (Number(moved.numUpdatedRows) !== 1) throw new JobLost();
    });
    if (values.size) this.onTranslated(job.project_id);
  }

  /** Renews the lease; false when the job is no longer ours to run (cancelled or taken over). */
  private async heartbeat(state: RunState): Promise<boolean> {
    const result = await this.ctx.db
      .updateTable('ai_jobs')
      .set({ lease_until: Date.now() + this.ctx.config.ai.leaseMs, run_ms: this.runMs(state) })
      .where('id', '=', state.job.id)
      .where('status', '=', 'running')
      .where('lease_owner', '=', this.owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  private runMs(state: RunState) {
    return state.baseRunMs + (Date.now() - state.segmentStart);
  }

  private async finish(
    jobId: string,
    status: 'completed' | 'failed',
    error: string | null,
    state?: RunState,
  ) {
    const now = nowIso();
    await this.ctx.db
      .updateTable('ai_jobs')
      .set({
        status,
        error,
        finished_at: now,
        updated_at: now,
        lease_owner: null,
        lease_until: null,
        ...(state ? { run_ms: this.runMs(state) } : {}),
      })
      .where('id', '=', jobId)
      .where('status', '=', 'running')
      .execute();
    await this.ctx.db.deleteFrom('ai_job_items').where('job_id', '=', jobId).execute();
  }
}
