import type { AiJobStatus } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import { ACTIVE, newJobRow, type AiJobRow, type NewJob } from '../ai/ai-jobs-repository.ts';
import type { AiJobsStore } from '../ai/jobs-service.ts';

/** AI jobs and their pending items (phrase ids) in memory: the records AiJobsRepository keeps in SQL. */
export class InMemoryAiJobsRepository implements AiJobsStore {
  readonly rows: AiJobRow[] = [];
  /** Job id → the phrase ids still to translate. */
  readonly items = new Map<string, number[]>();

  async create(job: NewJob): Promise<void> {
    this.rows.push(newJobRow(job, nowIso()));
    this.items.set(job.id, [...job.phraseIds]);
  }

  async countActive(): Promise<{ status: AiJobStatus; count: number }[]> {
    return ACTIVE.map((status) => ({
      status,
      count: this.rows.filter((row) => row.status === status).length,
    })).filter(({ count }) => count > 0);
  }

  async active(projectId: number): Promise<AiJobRow[]> {
    return this.ofProject(projectId)
      .filter((row) => ACTIVE.includes(row.status))
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async inProject(projectId: number, id: string): Promise<AiJobRow | undefined> {
    const row = this.ofProject(projectId).find((candidate) => candidate.id === id);
    return row && { ...row };
  }

  async finished(projectId: number, limit: number): Promise<AiJobRow[]> {
    return this.ofProject(projectId)
      .filter((row) => !ACTIVE.includes(row.status))
      .sort(
        (a, b) =>
          (b.finished_at ?? '').localeCompare(a.finished_at ?? '') ||
          b.created_at.localeCompare(a.created_at),
      )
      .slice(0, limit);
  }

  async cancel(projectId: number, id: string): Promise<boolean> {
    const row = this.ofProject(projectId).find((candidate) => candidate.id === id);
    if (!row || !ACTIVE.includes(row.status)) return false;
    const now = nowIso();
    Object.assign(row, {
      status: 'cancelled',
      finished_at: now,
      updated_at: now,
      lease_owner: null,
      lease_until: null,
    });
    return true;
  }

  async dropItems(jobId: string): Promise<void> {
    this.items.delete(jobId);
  }

  private ofProject(projectId: number): AiJobRow[] {
    return this.rows.filter((row) => row.project_id === projectId);
  }
}
