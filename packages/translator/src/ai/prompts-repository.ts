import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { PromptsTable, TranslatorDB } from '../db/schema.ts';

export type PromptRow = Selectable<PromptsTable>;

/** A project's `prompts`; making one the default unsets the others in the same transaction. */
export class PromptsRepository {
  constructor(private readonly db: Kysely<TranslatorDB>) {}

  /** The default first, then by creation. */
  list(projectId: number): Promise<PromptRow[]> {
    return this.db
      .selectFrom('prompts')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('is_default', 'desc')
      .orderBy('created_at')
      .execute();
  }

  get(projectId: number, id: string): Promise<PromptRow | undefined> {
    return this.db
      .selectFrom('prompts')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  theDefault(projectId: number): Promise<PromptRow> {
    return this.db
      .selectFrom('prompts')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('is_default', 'desc')
      .executeTakeFirstOrThrow();
  }

  async insert(prompt: Insertable<PromptsTable>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (prompt.is_default)
        await trx
          .updateTable('prompts')
          .set({ is_default: 0 })
          .where('project_id', '=', prompt.project_id)
          .execute();
      await trx.insertInto('prompts').values(prompt).execute();
    });
  }

  async update(projectId: number, id: string, values: Updateable<PromptsTable>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (values.is_default)
        await trx.updateTable('prompts').set({ is_default: 0 }).where('project_id', '=', projectId).execute();
      await trx
        .updateTable('prompts')
        .set(values)
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .execute();
    });
  }

  async delete(projectId: number, id: string): Promise<void> {
    await this.db.deleteFrom('prompts').where('project_id', '=', projectId).where('id', '=', id).execute();
  }
}
