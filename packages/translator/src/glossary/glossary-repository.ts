import type { Insertable, Kysely, Updateable } from 'kysely';
import type { GlossaryTermsTable, TranslatorDB } from '../db/schema.ts';

/** `glossary_terms`: a project's terms. */
export class GlossaryRepository {
  constructor(private readonly db: Kysely<TranslatorDB>) {}

  /** The terms of a project, of one language ('' = those for every language) or all, by term. */
  list(projectId: number, lang?: string) {
    return this.db
      .selectFrom('glossary_terms')
      .selectAll()
      .where('project_id', '=', projectId)
      .$if(lang !== undefined, (query) => query.where('lang', '=', lang!))
      .orderBy('term_key')
      .orderBy('lang')
      .execute();
  }

  /** The terms that apply to translations into `lang`: its own and those for every language. */
  applying(projectId: number, lang: string) {
    return this.db
      .selectFrom('glossary_terms')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('lang', 'in', [lang, ''])
      .orderBy('term_key')
      .execute();
  }

  byId(projectId: number, id: number) {
    return this.db
      .selectFrom('glossary_terms')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  create(row: Insertable<GlossaryTermsTable>) {
    return this.db.insertInto('glossary_terms').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(projectId: number, id: number, patch: Updateable<GlossaryTermsTable>) {
    return this.db
      .updateTable('glossary_terms')
      .set(patch)
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(projectId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('glossary_terms')
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
