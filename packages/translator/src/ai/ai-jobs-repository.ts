import { sql, type Kysely, type Selectable, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type {
  ClaimedJob,
  ExpiredJob,
  JobEvents,
  JobProgress,
  JobStatus,
  JobStatusRow,
  JobStore,
} from '@app/server-kit';
import type { AiJobStatus, AiJobsTable, TranslatorDB } from '../db/schema.ts';
import { chunks } from '../common/chunks.ts';
import { nowIso } from '../common/time.ts';
import { saveTranslations } from '../translations/translation-writes-repository.ts';

export type AiJobRow = Selectable<AiJobsTable>;
type JobUpdate = UpdateQueryBuilder<TranslatorDB, 'ai_jobs', 'ai_jobs', UpdateResult>;

export const ACTIVE: AiJobStatus[] = ['pending', 'running'];

/** The one command of AI jobs (the job engine dispatches on it). */
export const TRANSLATE = 'ai-translate';

const ENGINE_STATUS: Record<AiJobStatus, JobStatus> = {
  pending: 'pending',
  running: 'running',
  completed: 'success',
  failed: 'failure',
  cancelled: 'cancelled',
};

/** A run's hold on a job: writes made under it land only while the job is running under this token. */
export interface JobHold {
  jobId: string;
  token: string;
}

export interface NewJob {
  id: string;
  projectId: number;
  lang: string;
  promptId: string | null;
  includeScreenshots: boolean;
  phraseIds: number[];
}

/** The outcome of one batch: translations to save, and the phrases that failed. */
export interface BatchOutcome {
  projectId: number;
  lang: string;
  values: Map<number, string>;
  failed: number[];
  runMs: number;
  /** The values came from the translation memory, whose source texts have this many characters. */
  memoryCharacters?: number | undefined;
}

/** The record of a job just created: pending, nothing done yet. */
export function newJobRow(job: NewJob, now: string): AiJobRow {
  return {
    id: job.id,
    project_id: job.projectId,
    lang: job.lang,
    prompt_id: job.promptId,
    status: 'pending',
    total: job.phraseIds.length,
    completed: 0,
    failed: 0,
    include_screenshots: job.includeScreenshots ? 1 : 0,
    error: null,
    lease_owner: null,
    lease_until: null,
    run_ms: 0,
    memory_filled: 0,
    memory_characters: 0,
    created_at: now,
    started_at: null,
    finished_at: null,
    updated_at: now,
  };
}

/** Thrown inside a transaction to roll it back when the job's hold is gone. */
class HoldLost extends Error {}

/**
 * `ai_jobs` and their `ai_job_items`: the job records, and the job engine's store for them. A run resumes
 * from the job's pending items, so any number of runs is safe and `ai_jobs` counts none (attempts is
 * always 1). AI jobs keep no output log: their progress is the counters, a failure's reason `error`.
 */
export class AiJobsRepository implements JobStore<string> {
  /**
   * `jobsPerProject`: running jobs one project may have; a claim skips a project at its cap. `events`
   * hears when a job ends.
   */
  constructor(
    private readonly db: Kysely<TranslatorDB>,
    private readonly jobsPerProject: number,
    private readonly events: JobEvents<string>,
  ) {}

  /** The job and its pending items, in one transaction. */
  async create(job: NewJob): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('ai_jobs').values(newJobRow(job, nowIso())).execute();
      for (const part of chunks(job.phraseIds, 1000)) {
        await trx
          .insertInto('ai_job_items')
          .values(
            part.map((phraseId) => ({ job_id: job.id, phrase_id: phraseId, state: 'pending' as const })),
          )
          .execute();
      }
    });
  }

  async countActive(): Promise<{ status: AiJobStatus; count: number }[]> {
    const rows = await this.db
      .selectFrom('ai_jobs')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('status', 'in', ACTIVE)
      .groupBy('status')
      .execute();
    return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
  }

  active(projectId: number): Promise<AiJobRow[]> {
    return this.db
      .selectFrom('ai_jobs')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('status', 'in', ACTIVE)
      .orderBy('created_at')
      .execute();
  }

  inProject(projectId: number, id: string): Promise<AiJobRow | undefined> {
    return this.db
      .selectFrom('ai_jobs')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  byId(id: string): Promise<AiJobRow> {
    return this.db.selectFrom('ai_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** Finished jobs, newest first. */
  finished(projectId: number, limit: number): Promise<AiJobRow[]> {
    return this.db
      .selectFrom('ai_jobs')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('status', 'not in', ACTIVE)
      .orderBy('finished_at', 'desc')
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** Cancels the job if it is pending or running; false when it had already ended. */
  async cancel(projectId: number, id: string): Promise<boolean> {
    const now = nowIso();
    const result = await this.db
      .updateTable('ai_jobs')
      .set({ status: 'cancelled', finished_at: now, updated_at: now, lease_owner: null, lease_until: null })
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .where('status', 'in', ACTIVE)
      .executeTakeFirst();
    if (!Number(result.numUpdatedRows)) return false;
    await this.events.announce({ kind: 'status', jobId: id, status: 'cancelled' });
    return true;
  }

  async dropItems(jobId: string): Promise<void> {
    await this.db.deleteFrom('ai_job_items').where('job_id', '=', jobId).execute();
  }

  /** The oldest pending job whose project is below its cap of running jobs, now running under `owner`. */
  async claim(owner: string, commands: string[], leaseMs: number): Promise<ClaimedJob<string> | undefined> {
    if (!commands.includes(TRANSLATE)) return undefined;
    const pending = await this.db
      .selectFrom('ai_jobs')
      .select(['id', 'project_id'])
      .where('status', '=', 'pending')
      .orderBy('created_at')
      .limit(100)
      .execute();
    for (const candidate of pending) {
      if (await this.claimOne(candidate.id, candidate.project_id, owner, Date.now() + leaseMs))
        return { id: candidate.id, command: TRANSLATE, payload: {}, attempts: 1 };
    }
    return undefined;
  }

  /** pending → running under `owner`, unless the project already runs its cap of jobs. */
  private async claimOne(id: string, projectId: number, owner: string, leaseUntil: number): Promise<boolean> {
    const claimed = await this.db
      .updateTable('ai_jobs')
      .set({
        status: 'running',
        lease_owner: owner,
        lease_until: leaseUntil,
        started_at: sql`coalesce(started_at, ${nowIso()})`,
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where(
        (eb) =>
          eb
            .selectFrom('ai_jobs as other')
            .select((inner) => inner.fn.countAll<number>().as('n'))
            .where('other.project_id', '=', projectId)
            .where('other.status', '=', 'running'),
        '<',
        this.jobsPerProject,
      )
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  async heartbeat(owner: string, ids: string[], leaseMs: number): Promise<string[]> {
    if (!ids.length) return [];
    const held = await this.db
      .updateTable('ai_jobs')
      .set({ lease_until: Date.now() + leaseMs })
      .where('id', 'in', ids)
      .where('status', '=', 'running')
      .where('lease_owner', '=', owner)
      .returning('id')
      .execute();
    const still = new Set(held.map((row) => row.id));
    return ids.filter((id) => !still.has(id));
  }

  async expired(): Promise<ExpiredJob<string>[]> {
    const rows = await this.db
      .selectFrom('ai_jobs')
      .select(['id', 'lease_owner'])
      .where('status', '=', 'running')
      .where('lease_until', '<', Date.now())
      .orderBy('created_at')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      command: TRANSLATE,
      payload: {},
      attempts: 1,
      leaseOwner: row.lease_owner,
    }));
  }

  async takeOver(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('ai_jobs')
      .set({ lease_owner: owner, lease_until: Date.now() + leaseMs, updated_at: nowIso() })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('lease_until', '<', Date.now())
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Hands the job back as pending (its worker stops, or died); the run time so far stays. */
  async requeue(id: string, owner: string): Promise<boolean> {
    const result = await owned(
      this.db
        .updateTable('ai_jobs')
        .set({ status: 'pending', lease_owner: null, lease_until: null, updated_at: nowIso() }),
      { jobId: id, token: owner },
    ).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async appendOutput(): Promise<void> {}

  async rows(): Promise<JobStatusRow<string>[]> {
    return [];
  }

  async statusOf(id: string): Promise<JobStatus | undefined> {
    const row = await this.db.selectFrom('ai_jobs').select('status').where('id', '=', id).executeTakeFirst();
    return row && ENGINE_STATUS[row.status];
  }

  progressOf(id: string): Promise<JobProgress | undefined> {
    return this.db
      .selectFrom('ai_jobs')
      .select(['total', 'completed', 'failed'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Writes the run time so far, if the hold still holds the job. */
  async saveRunMs(hold: JobHold, runMs: number): Promise<void> {
    await owned(this.db.updateTable('ai_jobs').set({ run_ms: runMs }), hold).execute();
  }

  /**
   * The job's pending items, with the phrase key (none when the phrase is gone from the project) and the
   * state of its translation into the job's language (none when it has none).
   */
  pendingItems(job: Pick<AiJobRow, 'id' | 'project_id' | 'lang'>) {
    return this.db
      .selectFrom('ai_job_items as i')
      .leftJoin('phrases as p', (join) =>
        join.onRef('p.id', '=', 'i.phrase_id').on('p.project_id', '=', job.project_id),
      )
      .leftJoin('translations as t', (join) =>
        join.onRef('t.phrase_id', '=', 'i.phrase_id').on('t.lang', '=', job.lang),
      )
      .select(['i.phrase_id', 'p.key', 't.state'])
      .where('i.job_id', '=', job.id)
      .where('i.state', '=', 'pending')
      .orderBy('i.phrase_id')
      .execute();
  }

  counters(jobId: string): Promise<{ completed: number; failed: number } | undefined> {
    return this.db
      .selectFrom('ai_jobs')
      .select(['completed', 'failed'])
      .where('id', '=', jobId)
      .executeTakeFirst();
  }

  /**
   * Saves a batch's translations (of phrases still in the project; the others count as failed), sets
   * the item states and moves the counters, in one transaction, which rolls back when the hold is gone.
   * Returns the job's progress after it, or undefined when nothing was written.
   */
  async recordBatch(hold: JobHold, batch: BatchOutcome): Promise<JobProgress | undefined> {
    const now = nowIso();
    const fromMemory = batch.memoryCharacters !== undefined;
    try {
      return await this.db.transaction().execute(async (trx) => {
        const still = batch.values.size
          ? await trx
              .selectFrom('phrases')
              .select('id')
              .where('project_id', '=', batch.projectId)
              .where('id', 'in', [...batch.values.keys()])
              .execute()
          : [];
        const saved = still.map((row) => row.id);
        const lostIds = [...batch.values.keys()].filter((id) => !saved.includes(id));
        const failedIds = [...batch.failed, ...lostIds];
        if (saved.length) {
          await saveTranslations(
            trx,
            batch.projectId,
            batch.lang,
            new Map(saved.map((id) => [id, batch.values.get(id)!])),
            { state: 'machine', source: fromMemory ? 'memory' : 'ai', actor: `ai-job:${hold.jobId}` },
          );
          await trx
            .updateTable('ai_job_items')
            .set({ state: 'done' })
            .where('job_id', '=', hold.jobId)
            .where('phrase_id', 'in', saved)
            .execute();
        }
        if (failedIds.length) {
          await trx
            .updateTable('ai_job_items')
            .set({ state: 'failed' })
            .where('job_id', '=', hold.jobId)
            .where('phrase_id', 'in', failedIds)
            .execute();
        }
        const moved = await owned(
          trx.updateTable('ai_jobs').set((eb) => ({
            completed: eb('completed', '+', saved.length),
            failed: eb('failed', '+', failedIds.length),
            ...(fromMemory
              ? {
                  memory_filled: eb('memory_filled', '+', saved.length),
                  memory_characters: eb('memory_characters', '+', batch.memoryCharacters!),
                }
              : {}),
            run_ms: batch.runMs,
            updated_at: now,
          })),
          hold,
        )
          .returning(['total', 'completed', 'failed'])
          .executeTakeFirst();
        if (!moved) throw new HoldLost();
        return moved;
      });
    } catch (error) {
      if (error instanceof HoldLost) return undefined;
      throw error;
    }
  }

  /** Ends the job if `owner` still holds it, and drops its items (finished jobs keep none). */
  async finish(id: string, owner: string, status: 'success' | 'failure', error?: string): Promise<boolean> {
    const now = nowIso();
    const ended = await this.db.transaction().execute(async (trx) => {
      const update = await owned(
        trx.updateTable('ai_jobs').set({
          status: status === 'success' ? 'completed' : 'failed',
          error: error ?? null,
          finished_at: now,
          updated_at: now,
          lease_owner: null,
          lease_until: null,
        }),
        { jobId: id, token: owner },
      ).executeTakeFirst();
      if (Number(update.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom('ai_job_items').where('job_id', '=', id).execute();
      return true;
    });
    if (ended) await this.events.announce({ kind: 'status', jobId: id, status });
    return ended;
  }
}

/** Restricts an update of `ai_jobs` to the hold's job while the hold still holds it. */
function owned(query: JobUpdate, hold: JobHold): JobUpdate {
  return query
    .where('id', '=', hold.jobId)
    .where('status', '=', 'running')
    .where('lease_owner', '=', hold.token);
}
