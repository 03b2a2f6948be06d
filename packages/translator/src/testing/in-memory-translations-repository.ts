import type { Transaction } from 'kysely';
import type { TranslatorDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { DeliveryRules, PageFilter } from '../translations/translations-repository.ts';
import {
  byMachine,
  type Authorship,
  type WriteOutcome,
} from '../translations/translation-writes-repository.ts';
import type { TranslationsStore } from '../translations/translations-service.ts';
import { InMemoryTables, removeWhere, type PhraseRow } from './in-memory-tables.ts';

/** Handed to the work of a transaction, which passes it back to this repository: nothing reads it. */
const NO_DATABASE = Object.freeze({}) as Transaction<TranslatorDB>;

/**
 * Translations in memory, with the phrases they are looked up and listed with: what
 * TranslationsRepository keeps in SQL. A transaction whose work throws leaves the translations as they were.
 */
export class InMemoryTranslationsRepository implements TranslationsStore {
  constructor(readonly tables = new InMemoryTables()) {}

  async transaction<T>(work: (trx: Transaction<TranslatorDB>) => Promise<T>): Promise<T> {
    const before = this.tables.translations.map((row) => ({ ...row }));
    try {
      return await work(NO_DATABASE);
    } catch (error) {
      this.tables.translations.splice(0, this.tables.translations.length, ...before);
      throw error;
    }
  }

  async approved(projectId: number, lang: string, rules: DeliveryRules = {}) {
    return this.phrasesOf(projectId)
      .filter((phrase) => phrase.status === 'approved')
      .flatMap((phrase) => {
        const translation = this.translationOf(phrase.id, lang);
        return translation &&
          (!rules.reviewedOnly || translation.state === 'reviewed') &&
          (rules.outdated || !translation.outdated_from)
          ? [{ key: phrase.key, context: phrase.context, value: translation.value }]
          : [];
      });
  }

  async deliveredLanguages(projectId: number, rules: DeliveryRules) {
    const langs = new Set(
      this.tables.translations.filter((row) => row.project_id === projectId).map((row) => row.lang),
    );
    const delivered: string[] = [];
    for (const lang of langs) if ((await this.approved(projectId, lang, rules)).length) delivered.push(lang);
    return delivered;
  }

  async page(projectId: number, filter: PageFilter) {
    const search = filter.search?.trim().toLowerCase();
    const matches = (text: string | undefined) => text !== undefined && text.toLowerCase().includes(search!);
    const rows = this.phrasesOf(projectId)
      .map((phrase) => ({ phrase, translation: this.translationOf(phrase.id, filter.lang) }))
      .filter(({ phrase }) => !filter.status || phrase.status === filter.status)
      .filter(({ translation }) => !filter.state || translation?.state === filter.state)
      .filter(
        ({ translation }) =>
          !filter.outdated || Boolean(translation?.outdated_from) === (filter.outdated === 'yes'),
      )
      .filter(
        ({ translation }) => !filter.translated || (filter.translated === 'yes') === Boolean(translation),
      )
      .filter(({ phrase, translation }) => {
        if (!search) return true;
        const urls = () =>
          this.tables.phraseUrls.some((row) => row.phrase_id === phrase.id && matches(row.url));
        const field = filter.searchField;
        if (field === 'url') return urls();
        if (field === 'all')
          return matches(phrase.key) || matches(phrase.context) || matches(translation?.value) || urls();
        return matches(
          field === 'value' ? translation?.value : field === 'context' ? phrase.context : phrase.key,
        );
      })
      .sort((a, b) => b.phrase.id - a.phrase.id);
    return {
      rows: rows.slice(filter.offset, filter.offset + filter.limit).map(({ phrase, translation }) => ({
        id: phrase.id,
        key: phrase.key,
        context: phrase.context,
        status: phrase.status,
        var_slots: phrase.var_slots,
        slot_texts: phrase.slot_texts,
        has_screenshot: 0,
        value: translation?.value ?? null,
        translation_id: translation?.id ?? null,
        state: translation?.state ?? null,
        suggestion: translation?.suggestion ?? null,
        outdated_from: translation?.outdated_from ?? null,
      })),
      total: rows.length,
    };
  }

  async urlsOf(phraseIds: number[]) {
    const wanted = new Set(phraseIds);
    return this.tables.phraseUrls
      .filter((row) => wanted.has(row.phrase_id))
      .map(({ phrase_id, url }) => ({ phrase_id, url }))
      .sort((a, b) => a.url.localeCompare(b.url));
  }

  async phrasesByHash(projectId: number, hashes: string[]) {
    const wanted = new Set(hashes);
    return this.phrasesOf(projectId)
      .filter((phrase) => wanted.has(phrase.key_hash))
      .map(({ id, key, key_hash }) => ({ id, key, key_hash }));
  }

  async phrasesByIds(projectId: number, ids: number[]) {
    const wanted = new Set(ids);
    return this.phrasesOf(projectId)
      .filter((phrase) => wanted.has(phrase.id))
      .map(({ id, key }) => ({ id, key }));
  }

  async countExisting(lang: string, phraseIds: number[]): Promise<number> {
    return phraseIds.filter((id) => this.translationOf(id, lang)).length;
  }

  /** As saveTranslations, without the history (which only the SQL repository keeps). */
  async save(projectId: number, lang: string, values: Map<number, string>, author: Authorship) {
    const now = nowIso();
    const outcome: WriteOutcome = { changed: [], suggested: [] };
    for (const [phraseId, value] of values) {
      const existing = this.translationOf(phraseId, lang);
      if (byMachine(author) && existing && existing.state !== 'machine') {
        existing.suggestion = value;
        outcome.suggested.push(phraseId);
      } else if (existing?.value !== value || existing.state !== author.state || existing.outdated_from) {
        outcome.changed.push(phraseId);
        if (existing)
          Object.assign(existing, {
            value,
            state: author.state,
            suggestion: null,
            outdated_from: null,
            updated_at: now,
          });
        else
          this.tables.translations.push({
            id: this.tables.nextId('translations'),
            project_id: projectId,
            phrase_id: phraseId,
            lang,
            value,
            state: author.state,
            suggestion: null,
            outdated_from: null,
            created_at: now,
            updated_at: now,
          });
      }
    }
    return outcome;
  }

  async deleteOne(projectId: number, id: number): Promise<boolean> {
    return removeWhere(this.tables.translations, (row) => row.project_id === projectId && row.id === id) > 0;
  }

  private phrasesOf(projectId: number): PhraseRow[] {
    return this.tables.phrases.filter((row) => row.project_id === projectId).sort((a, b) => a.id - b.id);
  }

  private translationOf(phraseId: number, lang: string) {
    return this.tables.translations.find((row) => row.phrase_id === phraseId && row.lang === lang);
  }
}
