import type { Selectable } from 'kysely';
import type { PhrasesTable, PhraseUrlsTable, TranslationsTable } from '../db/schema.ts';
import type { ProjectRow } from '../projects/projects-repository.ts';
import type { PromptRow } from '../ai/prompts-repository.ts';

export type PhraseRow = Selectable<PhrasesTable>;
export type TranslationRow = Selectable<TranslationsTable>;

/**
 * The translator's tables as arrays, shared by the in-memory repositories as the real ones share the
 * database: a project's data spans several of them (deleting a phrase takes its URLs and translations).
 */
export class InMemoryTables {
  readonly projects: ProjectRow[] = [];
  readonly prompts: PromptRow[] = [];
  readonly phrases: PhraseRow[] = [];
  readonly phraseUrls: Selectable<PhraseUrlsTable>[] = [];
  readonly translations: TranslationRow[] = [];
  private readonly lastIds = new Map<string, number>();

  /** The next generated id of a table, as an identity column hands them out. */
  nextId(table: 'projects' | 'phrases' | 'translations'): number {
    const id = (this.lastIds.get(table) ?? 0) + 1;
    this.lastIds.set(table, id);
    return id;
  }

  /** Deletes the phrases with their URLs and translations; how many phrases and translations went. */
  deletePhrases(ids: Iterable<number>): { phrases: number; translations: number } {
    const gone = new Set(ids);
    const counts = {
      phrases: removeWhere(this.phrases, (row) => gone.has(row.id)),
      translations: removeWhere(this.translations, (row) => gone.has(row.phrase_id)),
    };
    removeWhere(this.phraseUrls, (row) => gone.has(row.phrase_id));
    return counts;
  }
}

/** Removes the rows that match, in place; how many. */
export function removeWhere<Row>(rows: Row[], matches: (row: Row) => boolean): number {
  const kept = rows.filter((row) => !matches(row));
  const removed = rows.length - kept.length;
  rows.splice(0, rows.length, ...kept);
  return removed;
}
