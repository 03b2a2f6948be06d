import { randomUUID } from 'node:crypto';
import { notFound } from '@app/server-kit';
import type { AiJobStatus } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { PhrasesService } from '../phrases/phrases-service.ts';
import type { PromptsService } from './prompts-service.ts';
import { ACTIVE, type AiJobRow, type AiJobsRepository } from './ai-jobs-repository.ts';
import { fail } from '../errors/catalogue.ts';

export const LOG_ENTRIES = 50;

export interface AiJob {
  id: string;
  status: AiJobStatus;
  lang: string;
  promptId: string | null;
  total: number;
  completed: number;
  failed: number;
  /** Seconds, from the rate measured so far (a guess of one second per batch before the first one ends). */
  estimatedTimeRemaining: number;
  includeScreenshots: boolean;
  /** Items the translation memory filled before the machine was asked, and the characters not sent. */
  memory: { filled: number; savedCharacters: number };
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface CreateJobInput {
  keyIds: number[];
  lang: string;
  promptId?: string | undefined;
  includeScreenshots?: boolean | undefined;
}

/** What the service asks of its repository (the specs hand it an in-memory one). */
export type AiJobsStore = Pick<
  AiJobsRepository,
  'create' | 'countActive' | 'active' | 'inProject' | 'finished' | 'cancel' | 'dropItems'
>;

/** AI translation jobs as records: creation with its items, reading, cancellation, history. */
export class AiJobsService {
  /** Called after a job is created or cancelled, so the worker looks at once. */
  onChange: () => void = () => {};

  constructor(
    private readonly ctx: Pick<TranslatorContext, 'config'>,
    private readonly jobs: AiJobsStore,
    private readonly projects: ProjectsService,
    private readonly phrases: PhrasesService,
    private readonly prompts: PromptsService,
  ) {}

  toJob(row: AiJobRow): AiJob {
    const done = row.completed + row.failed;
    const remaining = Math.max(0, row.total - done);
    const { batchSize, parallelCalls } = this.ctx.config.ai;
    // The memory fills its items in moments: the rate is the machine's alone.
    const byMachine = done - row.memory_filled;
    let eta = 0;
    if (ACTIVE.includes(row.status) && remaining > 0) {
      eta =
        byMachine > 0 && row.run_ms > 0
          ? Math.ceil(((row.run_ms / byMachine) * remaining) / 1000)
          : Math.ceil(remaining / batchSize / parallelCalls);
    }
    return {
      id: row.id,
      status: row.status,
      lang: row.lang,
      promptId: row.prompt_id,
      total: row.total,
      completed: row.completed,
      failed: row.failed,
      estimatedTimeRemaining: eta,
      includeScreenshots: Boolean(row.include_screenshots),
      memory: { filled: row.memory_filled, savedCharacters: row.memory_characters },
      error: row.error,
      createdAt: row.created_at,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
    };
  }

  async create(projectId: number, input: CreateJobInput): Promise<{ jobId: string; total: number }> {
    const settings = await this.projects.settings(projectId);
    if (!settings.languages.includes(input.lang)) {
      throw fail('unknown_language', `Language "${input.lang}" is not configured for this project.`, {
        lang: 'is not configured',
      });
    }
    if (!(await this.projects.providerKey(projectId))) {
      throw fail(
        'provider_not_configured',
        'Set settings.translationProviderApiKey before starting an AI job.',
        { translationProviderApiKey: 'is not set' },
      );
    }
    if (input.promptId)
      await this.prompts.get(projectId, input.promptId).catch(() => {
        throw fail('unknown_prompt', 'No prompt with this id.', { prompt_id: 'does not exist' });
      });
    const wanted = [...new Set(input.keyIds)];
    const found = new Set(await this.phrases.existing(projectId, wanted));
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length) {
      throw fail('unknown_phrase', `${missing.length} of the key_ids are not phrases of this project.`, {
        key_ids: `unknown: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}`,
      });
    }
    const id = randomUUID();
    await this.jobs.create({
      id,
      projectId,
      lang: input.lang,
      promptId: input.promptId ?? null,
      includeScreenshots: Boolean(input.includeScreenshots),
      phraseIds: wanted,
    });
    this.onChange();
    return { jobId: id, total: wanted.length };
  }

  /** Jobs waiting and running in every project, by status (the queue depth for the metrics). */
  countActive(): Promise<{ status: AiJobStatus; count: number }[]> {
    return this.jobs.countActive();
  }

  /** The pending and running jobs; with `languages`, only the jobs into them. */
  async active(projectId: number, languages?: readonly string[]) {
    const jobs = (await this.jobs.active(projectId))
      .filter((row) => !languages || languages.includes(row.lang))
      .map((row) => this.toJob(row));
    const running = jobs.filter((job) => job.status === 'running').length;
    return { jobs, stats: { running, pending: jobs.length - running, total: jobs.length } };
  }

  async get(projectId: number, id: string): Promise<AiJob> {
    const row = await this.jobs.inProject(projectId, id);
    if (!row) throw notFound('AI job not found.');
    return this.toJob(row);
  }

  /** Cancels a pending or running job; the worker stops it before its next batch. */
  async cancel(projectId: number, id: string): Promise<AiJob> {
    const cancelled = await this.jobs.cancel(projectId, id);
    const job = await this.get(projectId, id);
    if (!cancelled) throw fail('job_finished', `The job is already ${job.status}.`);
    await this.jobs.dropItems(id);
    this.onChange();
    return job;
  }

  /** The last 50 finished jobs, newest first. */
  /** The last finished jobs; with `languages`, only those into them. */
  async log(projectId: number, languages?: readonly string[]): Promise<AiJob[]> {
    return (await this.jobs.finished(projectId, LOG_ENTRIES))
      .filter((row) => !languages || languages.includes(row.lang))
      .map((row) => this.toJob(row));
  }
}
