import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { ProjectsTable, PromptsTable, TranslatorDB } from '../db/schema.ts';

export type ProjectRow = Selectable<ProjectsTable>;

/** `projects`, and what is created and deleted with a project's data. */
export class ProjectsRepository {
  constructor(private readonly db: Kysely<TranslatorDB>) {}

  /** The project and its default prompt, in one transaction. */
  create(
    project: Insertable<ProjectsTable>,
    prompt: Omit<Insertable<PromptsTable>, 'project_id'>,
  ): Promise<ProjectRow> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('projects')
        .values(project)
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('prompts')
        .values({ ...prompt, project_id: inserted.id })
        .execute();
      return inserted;
    });
  }

  /** The oldest project. */
  first(): Promise<ProjectRow | undefined> {
    return this.db.selectFrom('projects').selectAll().orderBy('id').limit(1).executeTakeFirst();
  }

  list(): Promise<{ id: number; name: string; created_at: string }[]> {
    return this.db.selectFrom('projects').select(['id', 'name', 'created_at']).orderBy('id').execute();
  }

  async ids(): Promise<number[]> {
    return (await this.db.selectFrom('projects').select('id').orderBy('id').execute()).map((row) => row.id);
  }

  byId(id: number): Promise<ProjectRow | undefined> {
    return this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The project whose page key (or, when `page` is false, whose full key's hash) this is. */
  byKey(page: boolean, value: string): Promise<{ id: number; settings: string } | undefined> {
    return this.db
      .selectFrom('projects')
      .select(['id', 'settings'])
      .where(page ? 'page_key' : 'api_key_hash', '=', value)
      .executeTakeFirst();
  }

  /** Every project's id with its stored settings. */
  allSettings(): Promise<{ id: number; settings: string }[]> {
    return this.db.selectFrom('projects').select(['id', 'settings']).orderBy('id').execute();
  }

  update(id: number, values: Updateable<ProjectsTable>): Promise<ProjectRow | undefined> {
    return this.db.updateTable('projects').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Reads the project and writes what `change` makes of it, in one transaction. */
  updateFrom(
    id: number,
    change: (current: ProjectRow) => Updateable<ProjectsTable>,
  ): Promise<ProjectRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
      if (!current) return undefined;
      return trx
        .updateTable('projects')
        .set(change(current))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /**
   * Deletes every phrase and translation of the project (its URLs go with the phrases) and its translation
   * memory, in one transaction.
   */
  deleteData(id: number): Promise<{ deletedPhrases: number; deletedTranslations: number }> {
    return this.db.transaction().execute(async (trx) => {
      const translations = await trx
        .deleteFrom('translations')
        .where('project_id', '=', id)
        .executeTakeFirst();
      await trx.deleteFrom('phrase_urls').where('project_id', '=', id).execute();
      await trx.deleteFrom('phrase_screenshots').where('project_id', '=', id).execute();
      await trx.deleteFrom('translation_memory').where('project_id', '=', id).execute();
      const phrases = await trx.deleteFrom('phrases').where('project_id', '=', id).executeTakeFirst();
      return {
        deletedPhrases: Number(phrases.numDeletedRows),
        deletedTranslations: Number(translations.numDeletedRows),
      };
    });
  }
}
