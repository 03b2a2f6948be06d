import { retryWhileUnavailable } from '@app/server-kit';
import type { TranslatorContext } from '../context.ts';
import { chunks } from '../common/chunks.ts';
import { languageName } from '../projects/languages.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { PromptsService } from './prompts-service.ts';
import { JobLease } from './job-lease.ts';
import type { AiJobRow, AiJobsRepository } from './ai-jobs-repository.ts';
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
  job: AiJobRow;
  lease: JobLease;
  apiKey: string;
  prompt: string;
  /** run_ms when this process took the job, and when. */
  baseRunMs: number;
  segmentStart: number;
}

/**
 * Runs AI jobs in this process. A job is claimed with a conditional update (pending → running, under a
 * lease of its own, see JobLease) that also enforces the per-project cap, so several processes can share
 * the work; the lease is renewed while the job runs and a job whose lease ran out (its worker died) goes
 * back to pending. A job this process still runs is never claimed again. Progress is written per batch,
 * only while the lease holds, and only pending items are sent, so a resumed job never repeats work.
 */
export class JobRunner {
  private readonly running = new Map<string, { lease: JobLease; done: Promise<void> }>();
  private readonly provider: ChatProvider;
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly ctx: TranslatorContext,
    private readonly jobs: AiJobsRepository,
    private readonly projects: ProjectsService,
    private readonly prompts: PromptsService,
    private readonly onTranslated: (projectId: number) => void,
    private readonly pollMs = 1000,
  ) {
    this.provider = new ChatProvider(ctx.config.ai, ctx.metrics);
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
    for (const { lease } of this.running.values()) lease.controller.abort();
    await Promise.all([...this.running.values()].map((entry) => entry.done));
    while (this.ticking) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private async tick() {
    // Our own runs' leases may have run out while the database was away: they are still ours to finish.
    const ours = [...this.running.values()].map(({ lease }) => lease.token);
    await this.jobs.releaseExpired(Date.now(), ours);
    const pending = await this.jobs.pending(100);
    for (const candidate of pending) {
      if (this.stopped) return;
      // Our own run of it has not wound down yet (its lease was lost): never two runs of one job here.
      if (this.running.has(candidate.id)) continue;
      const lease = new JobLease(this.ctx, this.jobs, candidate.id);
      if (await lease.claim(candidate.project_id)) this.launch(lease);
    }
  }

  private launch(lease: JobLease) {
    const { jobId } = lease;
    lease.keepAlive();
    const done = this.run(lease)
      .catch(async (error: unknown) => {
        this.ctx.log.error({ err: error, jobId }, 'AI job crashed');
        await this.finish(lease, 'failed', `Internal error: ${(error as Error).message}`).catch(() => {});
      })
      .finally(() => {
        lease.stop();
        this.running.delete(jobId);
        this.kick();
      });
    this.running.set(jobId, { lease, done });
  }

  private async run(lease: JobLease) {
    const { config } = this.ctx;
    const { jobId, signal } = lease;
    const job = await this.jobs.byId(jobId);
    const apiKey = await this.projects.providerKey(job.project_id);
    if (!apiKey) return this.finish(lease, 'failed', 'The project has no translationProviderApiKey.');
    const prompt = await this.prompts.forJob(job.project_id, job.prompt_id);
    const rows = await this.jobs.pendingItems(jobId, job.project_id);
    const state: RunState = {
      job,
      lease,
      apiKey,
      prompt: prompt.text,
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
    const worker = async () => {
      while (!fatal && !lease.lost && !signal.aborted && next < batches.length) {
        const batch = batches[next++]!;
        try {
          await this.runBatch(state, batch);
        } catch (error) {
          if (signal.aborted) return;
          if (error instanceof JobLost) {
            lease.markLost();
            return;
          }
          if (error instanceof ProviderError && error.retryable) {
            // Retries exhausted: these items fail, the job goes on.
            await this.record(
              state,
              new Map(),
              batch.map((item) => item.phraseId),
            ).catch((failure: unknown) => {
              if (!(failure instanceof JobLost)) throw failure;
              lease.markLost();
            });
          } else {
            fatal = error as Error;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: config.ai.parallelCalls }, worker));

    // Cancelled or taken over: whoever changed the job owns its outcome.
    if (lease.lost) return;
    if (signal.aborted) {
      // Shutting down: hand the job back so this or another process resumes it.
      await this.jobs.handBack(lease, this.runMs(state));
      return;
    }
    if (fatal) return this.finish(lease, 'failed', fatal.message, state);
    const final = await this.jobs.counters(jobId);
    const allFailed = final !== undefined && final.completed === 0 && final.failed > 0;
    return this.finish(
      lease,
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
      signal: state.lease.signal,
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
    if (state.lease.signal.aborted) return;
    const values = new Map([...translated].map(([id, text]) => [Number(id), text]));
    const failed = batch.map((item) => item.phraseId).filter((id) => !values.has(id));
    // The provider's answer is paid for: a short database outage waits, rather than losing it and asking
    // again. (One transaction, so trying it again is safe.)
    await retryWhileUnavailable(() => this.record(state, values, failed));
  }

  /** Saves a batch's translations and item states and moves the counters, in one transaction. */
  private async record(state: RunState, values: Map<number, string>, failed: number[]) {
    const { job } = state;
    const batch = { projectId: job.project_id, lang: job.lang, values, failed, runMs: this.runMs(state) };
    // Cancelled (or taken over) meanwhile: nothing was written.
    if (!(await this.jobs.recordBatch(state.lease, batch))) throw new JobLost();
    if (values.size) this.onTranslated(job.project_id);
  }

  private runMs(state: RunState) {
    return state.baseRunMs + (Date.now() - state.segmentStart);
  }

  /** Ends the job, if this lease still holds it, and drops its items (finished jobs keep none). */
  private async finish(
    lease: JobLease,
    status: 'completed' | 'failed',
    error: string | null,
    state?: RunState,
  ) {
    const ended = await this.jobs.finish(lease, status, error, state ? this.runMs(state) : undefined);
    if (ended) this.ctx.metrics.aiJobFinished(status, state ? this.runMs(state) / 1000 : 0);
  }
}
