import { LeaseLostError, retryWhileUnavailable, type JobContext, type JobHandler } from '@app/server-kit';
import type { TranslatorContext } from '../context.ts';
import { chunks } from '../common/chunks.ts';
import { languageName } from '../projects/languages.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { PromptsService } from './prompts-service.ts';
import { glossaryInstructions, type GlossaryRule, type GlossaryRules } from '../glossary/glossary-check.ts';
import type { AiJobRow, AiJobsRepository, JobHold } from './ai-jobs-repository.ts';
import {
  ChatProvider,
  ProviderError,
  type BatchItem,
  type BatchRequest,
  type BatchResult,
} from './provider.ts';
import { DeepLProvider } from './deepl-provider.ts';
import type { TranslationEngine } from '../projects/settings.ts';
import type { TranslationState } from '../db/schema.ts';
import type { TranslationMemoryService } from '../memory/memory-service.ts';
import type { ScreenshotsService } from '../screenshots/screenshots-service.ts';

interface WorkItem {
  phraseId: number;
  key: string;
  /** The state of the phrase's translation, if it has one. */
  state: TranslationState | null;
}

interface RunState {
  job: AiJobRow;
  hold: JobHold;
  signal: AbortSignal;
  progress: JobContext<string>['progress'];
  apiKey: string;
  prompt: string;
  /** The machine translation the project chose. */
  engine: ChatProvider | DeepLProvider;
  /** The glossary's terms for the job's language, told to the model where a batch uses them. */
  glossary: GlossaryRule[];
  /** run_ms when this run started, and when. */
  baseRunMs: number;
  segmentStart: number;
}

export interface TranslateJobDeps {
  ctx: TranslatorContext;
  jobs: AiJobsRepository;
  projects: ProjectsService;
  prompts: PromptsService;
  glossary: GlossaryRules;
  memory: Pick<TranslationMemoryService, 'exact'>;
  /** Where each phrase appears, sent with its batch when the job includes screenshots and the engine takes images. */
  screenshots?: Pick<ScreenshotsService, 'images'> | undefined;
  onTranslated: (projectId: number) => void;
}

/**
 * The AI translation job, run by the job engine. Only the job's pending items are sent, and of those only
 * the ones the translation memory cannot fill (its exact matches go in first, as machine translations
 * recorded as the memory's). Each batch is written in one transaction conditional on the run's lease, so
 * a run that lost the job writes nothing more and a resumed job never repeats work: a take-over or a
 * restart simply runs it again.
 */
export class TranslateJob implements JobHandler<unknown, string> {
  readonly retryOnTakeover = true;
  private readonly engines: Record<TranslationEngine, ChatProvider | DeepLProvider>;

  constructor(private readonly deps: TranslateJobDeps) {
    const { ai } = deps.ctx.config;
    this.engines = {
      openai: new ChatProvider(ai, deps.ctx.metrics),
      deepl: new DeepLProvider(ai, deps.ctx.metrics),
    };
  }

  async run(_payload: unknown, { job: claimed, owner, signal, progress }: JobContext<string>): Promise<void> {
    const { jobs, projects, prompts, glossary } = this.deps;
    const hold: JobHold = { jobId: claimed.id, token: owner };
    const job = await jobs.byId(claimed.id);
    const apiKey = await projects.providerKey(job.project_id);
    if (!apiKey) throw new Error('The project has no translationProviderApiKey.');
    const prompt = await prompts.forJob(job.project_id, job.prompt_id);
    const state: RunState = {
      job,
      hold,
      signal,
      progress,
      apiKey,
      prompt: prompt.text,
      engine: this.engines[(await projects.settings(job.project_id)).translationEngine],
      glossary: await glossary.rulesFor(job.project_id, job.lang),
      baseRunMs: job.run_ms,
      segmentStart: Date.now(),
    };
    try {
      await this.translate(state);
    } finally {
      await jobs.saveRunMs(hold, this.runMs(state));
    }
  }

  private async translate(state: RunState) {
    const { config } = this.deps.ctx;
    const { job, signal } = state;
    const rows = await this.deps.jobs.pendingItems(job);
    const gone = rows.filter((row) => row.key === null || row.key === undefined).map((row) => row.phrase_id);
    if (gone.length) await this.record(state, new Map(), gone);
    const items = rows.flatMap((row) =>
      row.key ? [{ phraseId: row.phrase_id, key: row.key, state: row.state }] : [],
    );
    const batches = chunks(await this.fillFromMemory(state, items), config.ai.batchSize);

    let next = 0;
    let fatal: Error | undefined;
    const worker = async () => {
      while (!fatal && !signal.aborted && next < batches.length) {
        const batch = batches[next++]!;
        try {
          await this.runBatch(state, batch);
        } catch (error) {
          if (signal.aborted) return;
          if (error instanceof ProviderError && error.retryable) {
            // Retries exhausted: these items fail, the job goes on.
            await this.record(
              state,
              new Map(),
              batch.map((item) => item.phraseId),
            ).catch((failure: unknown) => {
              fatal = failure as Error;
            });
          } else {
            fatal = error as Error;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: config.ai.parallelCalls }, worker));

    // Cancelled, taken over or shutting down: the engine settles the job.
    if (signal.aborted) return;
    if (fatal) throw fatal;
    const final = await this.deps.jobs.counters(job.id);
    if (final !== undefined && final.completed === 0 && final.failed > 0)
      throw new Error('Every item failed.');
  }

  /**
   * Fills the items the memory knows exactly; returns the others. A phrase a person translated is left to
   * the machine, whose text then stands beside the person's as a suggestion.
   */
  private async fillFromMemory(state: RunState, items: WorkItem[]): Promise<WorkItem[]> {
    const { job } = state;
    const open = items.filter((item) => item.state === null || item.state === 'machine');
    const known = await this.deps.memory.exact(
      job.project_id,
      job.lang,
      open.map((item) => item.key),
    );
    const filled = open.filter((item) => known.has(item.key));
    for (const part of chunks(filled, 500)) {
      const values = new Map(part.map((item) => [item.phraseId, known.get(item.key)!.value]));
      const characters = part.reduce((sum, item) => sum + [...item.key].length, 0);
      await retryWhileUnavailable(() => this.record(state, values, [], characters));
    }
    const done = new Set(filled);
    return items.filter((item) => !done.has(item));
  }

  /** One batch: a call (with retries), then one more call for the items it dropped or mangled. */
  private async runBatch(state: RunState, batch: WorkItem[]) {
    const items: BatchItem[] = batch.map((item) => ({ id: String(item.phraseId), text: item.key }));
    const images = await this.screenshotsOf(state, batch);
    const request = (list: BatchItem[]): BatchRequest => ({
      apiKey: state.apiKey,
      lang: state.job.lang,
      languageName: languageName(state.job.lang),
      prompt: state.prompt,
      glossary: glossaryInstructions(
        list.map((item) => item.text),
        state.glossary,
      ),
      items: list,
      images,
      signal: state.signal,
    });
    const first = await state.engine.translateWithRetry(request(items));
    const translated = new Map(first.translated);
    if (first.rejected.length) {
      const again = new Set(first.rejected.map((item) => item.id));
      let second: BatchResult | undefined;
      try {
        second = await state.engine.translateWithRetry(request(items.filter((item) => again.has(item.id))));
      } catch (error) {
        if (!(error instanceof ProviderError) || !error.retryable) throw error;
      }
      for (const [id, text] of second?.translated ?? []) translated.set(id, text);
    }
    if (state.signal.aborted) return;
    const values = new Map([...translated].map(([id, text]) => [Number(id), text]));
    const failed = batch.map((item) => item.phraseId).filter((id) => !values.has(id));
    // The provider's answer is paid for: a short database outage waits, rather than losing it and asking
    // again. (One transaction, so trying it again is safe.)
    await retryWhileUnavailable(() => this.record(state, values, failed));
  }

  /** The batch's screenshots (PNG by item id) when the job asked for them and its engine takes images. */
  private async screenshotsOf(state: RunState, batch: WorkItem[]): Promise<Map<string, Buffer> | undefined> {
    const { screenshots } = this.deps;
    if (!state.job.include_screenshots || !screenshots || !(state.engine instanceof ChatProvider))
      return undefined;
    const found = await screenshots.images(
      state.job.project_id,
      batch.map((item) => item.phraseId),
    );
    return new Map([...found].map(([phraseId, png]) => [String(phraseId), png]));
  }

  /**
   * Saves a batch's translations and item states and moves the counters, in one transaction;
   * `memoryCharacters` when the memory filled them.
   */
  private async record(
    state: RunState,
    values: Map<number, string>,
    failed: number[],
    memoryCharacters?: number,
  ) {
    const { job } = state;
    const runMs = this.runMs(state);
    const batch = { projectId: job.project_id, lang: job.lang, values, failed, runMs, memoryCharacters };
    const progress = await this.deps.jobs.recordBatch(state.hold, batch);
    // Cancelled (or taken over) meanwhile: nothing was written.
    if (!progress) throw new LeaseLostError();
    if (values.size) this.deps.onTranslated(job.project_id);
    await state.progress(progress);
  }

  private runMs(state: RunState) {
    return state.baseRunMs + (Date.now() - state.segmentStart);
  }
}
