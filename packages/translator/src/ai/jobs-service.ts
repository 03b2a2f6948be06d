import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { AppError, conflict, notFound } from '@app/server-kit';
import type { AiJobStatus, AiJobsTable } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import { chunks } from '../common/chunks.ts';
import { nowIso } from '../common/time.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { PhrasesService } from '../phrases/phrases-service.ts';
import type { PromptsService } from './prompts-service.ts';

export const LOG_ENTRIES = 50;
const ACTIVE: AiJobStatus[] = ['pending', 'running'];

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

/** AI translation jobs as records: creation with its items, reading, cancellation, history. */
export class AiJobsService {
  /** Called after a job is created or cancelled, so the worker looks at once. */
  onChange: () => void = () => {};

  constructor(
    private readonly ctx: TranslatorContext,
    private readonly projects: ProjectsService,
    private readonly phrases: PhrasesService,
    private readonly prompts: PromptsService,
  ) {}

  toJob(row: Selectable<AiJobsTable>): AiJob {
    const done = row.completed + row.failed;
    const remaining = Math.max(0, row.total - done);
    const { batchSize, parallelCalls } = this.ctx.config.ai;
    let eta = 0;
    if (ACTIVE.includes(row.status) && remaining > 0) {
      eta =
        done > 0 && row.run_ms > 0
          ? Math.ceil(((row.run_ms / done) * remaining) / 1000)
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
      error: row.error,
      createdAt: row.created_at,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
    };
  }

  async create(projectId: number, input: CreateJobInput): Promise<{ jobId: string; total: number }> {
    const settings = await this.projects.settings(projectId);
    if (!settings.languages.includes(input.lang)) {
      throw new AppError(
        422,
        'unknown_language',
        `Language "${input.lang}" is not configured for this project.`,
        {
          lang: 'is not configured',
        },
      );
    }
    if (!(await this.projects.providerKey(projectId))) {
      throw new AppError(
        422,
        'provider_not_configured',
        'Set settings.translationProviderApiKey before starting an AI job.',
        { translationProviderApiKey: 'is not set' },
      );
    }
    if (input.promptId)
      await this.prompts.get(projectId, input.promptId).catch(() => {
        throw new AppError(422, 'unknown_prompt', 'No prompt with this id.', { prompt_id: 'does not exist' });
      });
    const wanted = [...new Set(input.keyIds)];
    const found = new Set(await this.phrases.existing(projectId, wanted));
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length) {
      throw new AppError(
        422,
        'unknown_phrase',
        `${missing.length} of the key_ids are not phrases of this project.`,
        {
          key_ids: `unknown: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}`,
        },
      );
    }
    const id = randomUUID();
    const now = nowIso();
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('ai_jobs')
        .values({
          id,
          project_id: projectId,
          lang: input.lang,
          prompt_id: input.promptId ?? null,
          status: 'pending',
          total: wanted.length,
          completed: 0,
          failed: 0,
          include_screenshots: input.includeScreenshots ? 1 : 0,
          error: null,
          lease_owner: null,
          lease_until: null,
          run_ms: 0,
          created_at: now,
          started_at: null,
          finished_at: null,
          updated_at: now,
        })
        .execute();
      for (const part of chunks(wanted, 1000)) {
        await trx
          .insertInto('ai_job_items')
          .values(part.map((phraseId) => ({ job_id: id, phrase_id: phraseId, state: 'pending' as const })))
          .execute();
      }
    });
    this.onChange();
    return { jobId: id, total: wanted.length };
  }

  /** Jobs waiting and running in every project, by status (the queue depth for the metrics). */
  async countActive(): Promise<{ status: AiJobStatus; count: number }[]> {
    const rows = await this.ctx.db
      .selectFrom('ai_jobs')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('status', 'in', ACTIVE)
      .groupBy('status')
      .execute();
    return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
  }

  async active(projectId: number) {
    const rows = await this.ctx.db
      .selectFrom('ai_jobs')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('status', 'in', ACTIVE)
      .orderBy('created_at')
      .execute();
    const jobs = rows.map((row) => this.toJob(row));
    const running = jobs.filter((job) => job.status === 'running').length;
    return { jobs, stats: { running, pending: jobs.length - running, total: jobs.length } };
  }

  async get(projectId: number, id: string): Promise<AiJob> {
    const row = await this.ctx.db
      .selectFrom('ai_jobs')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('AI job not found.');
    return this.toJob(row);
  }

  /** Cancels a pending or running job; the worker stops it before its next batch. */
  async cancel(projectId: number, id: string): Promise<AiJob> {
    const now = nowIso();
    const result = await this.ctx.db
      .updateTable('ai_jobs')
      .set({ status: 'cancelled', finished_at: now, updated_at: now, lease_owner: null, lease_until: null })
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .where('status', 'in', ACTIVE)
      .executeTakeFirst();
    const job = await this.get(projectId, id);
    if (!Number(result.numUpdatedRows))
      throw conflict(`The job is already ${job.status}.`, undefined, 'job_finished');
    await this.ctx.db.deleteFrom('ai_job_items').where('job_id', '=', id).execute();
    this.onChange();
    return job;
  }

  /** The last 50 finished jobs, newest first. */
  async log(projectId: number): Promise<AiJob[]> {
    const rows = await this.ctx.db
      .selectFrom('ai_jobs')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('status', 'not in', ACTIVE)
      .orderBy('finished_at', 'desc')
      .orderBy('created_at', 'desc')
      .limit(LOG_ENTRIES)
      .execute();
    return rows.map((row) => this.toJob(row));
  }
}
