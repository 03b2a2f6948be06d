import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { conflict, notFound } from '@app/server-kit';
import type { PromptsTable } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import { nowIso } from '../common/time.ts';

export interface Prompt {
  id: string;
  name: string;
  text: string;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

const toPrompt = (row: Selectable<PromptsTable>): Prompt => ({
  id: row.id,
  name: row.name,
  text: row.text,
  isDefault: Boolean(row.is_default),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The system prompts of a project's AI jobs. Every project has exactly one default prompt. */
export class PromptsService {
  constructor(private readonly ctx: TranslatorContext) {}

  async list(projectId: number): Promise<Prompt[]> {
    const rows = await this.ctx.db
      .selectFrom('prompts')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('is_default', 'desc')
      .orderBy('created_at')
      .execute();
    return rows.map(toPrompt);
  }

  async get(projectId: number, id: string): Promise<Prompt> {
    const row = await this.ctx.db
      .selectFrom('prompts')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('Prompt not found.');
    return toPrompt(row);
  }

  /** The prompt of a job: the given one, else the project's default. */
  async forJob(projectId: number, id: string | null): Promise<Prompt> {
    if (id) {
      const row = await this.ctx.db
        .selectFrom('prompts')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (row) return toPrompt(row);
    }
    const fallback = await this.ctx.db
      .selectFrom('prompts')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('is_default', 'desc')
      .executeTakeFirstOrThrow();
    return toPrompt(fallback);
  }

  async create(
    projectId: number,
    input: { name: string; text: string; isDefault?: boolean | undefined },
  ): Promise<Prompt> {
    const now = nowIso();
    const id = randomUUID();
    await this.ctx.db.transaction().execute(async (trx) => {
      if (input.isDefault)
        await trx.updateTable('prompts').set({ is_default: 0 }).where('project_id', '=', projectId).execute();
      await trx
        .insertInto('prompts')
        .values({
          id,
          project_id: projectId,
          name: input.name.trim(),
          text: input.text,
          is_default: input.isDefault ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
    });
    return this.get(projectId, id);
  }

  async update(
    projectId: number,
    id: string,
    input: { name?: string | undefined; text?: string | undefined; isDefault?: boolean | undefined },
  ): Promise<Prompt> {
    const current = await this.get(projectId, id);
    if (input.isDefault === false && current.isDefault) {
      throw conflict(
        'Make another prompt the default instead.',
        { isDefault: 'one prompt must be the default' },
        'default_prompt',
      );
    }
    await this.ctx.db.transaction().execute(async (trx) => {
      if (input.isDefault)
        await trx.updateTable('prompts').set({ is_default: 0 }).where('project_id', '=', projectId).execute();
      await trx
        .updateTable('prompts')
        .set({
          ...(input.name !== undefined ? { name: input.name.trim() } : {}),
          ...(input.text !== undefined ? { text: input.text } : {}),
          ...(input.isDefault ? { is_default: 1 } : {}),
          updated_at: nowIso(),
        })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .execute();
    });
    return this.get(projectId, id);
  }

  async delete(projectId: number, id: string): Promise<void> {
    const current = await this.get(projectId, id);
    if (current.isDefault) {
      throw conflict(
        'The default prompt cannot be deleted; make another prompt the default first.',
        undefined,
        'default_prompt',
      );
    }
    await this.ctx.db
      .deleteFrom('prompts')
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .execute();
  }
}
