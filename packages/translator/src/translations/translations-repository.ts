import { sql, type Kysely, type Transaction } from 'kysely';
import type { PhraseStatus, TranslationState, TranslatorDB } from '../db/schema.ts';
import { chunks, likeEscape } from '../common/chunks.ts';
import { nowIso } from '../common/time.ts';
import { remember } from '../memory/memory-repository.ts';
import {
  recordHistory,
  saveTranslations,
  type Authorship,
  type WriteOutcome,
} from './translation-writes-repository.ts';

type Db = Kysely<TranslatorDB> | Transaction<TranslatorDB>;

export interface PageFilter {
  lang: string;
  status?: PhraseStatus | undefined;
  state?: TranslationState | undefined;
  translated?: 'yes' | 'no' | undefined;
  outdated?: 'yes' | 'no' | undefined;
  ids?: number[] | undefined;
  search?: string | undefined;
  searchField: 'key' | 'value' | 'context' | 'url' | 'all';
  limit: number;
  offset: number;
}

/** Which approved translations are delivered (the project's settings). */
export interface DeliveryRules {
  reviewedOnly?: boolean;
  outdated?: boolean;
}

/** `translations`, and the phrases they are looked up and listed with. */
export class TranslationsRepository {
  constructor(private readonly db: Kysely<TranslatorDB>) {}

  transaction<T>(work: (trx: Transaction<TranslatorDB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The approved phrases' translations: only reviewed ones if asked, and outdated ones only if asked. */
  private delivered(projectId: number, rules: DeliveryRules) {
    let query = this.db
      .selectFrom('translations as t')
      .innerJoin('phrases as p', 'p.id', 't.phrase_id')
      .where('t.project_id', '=', projectId)
      .where('p.status', '=', 'approved');
    if (rules.reviewedOnly) query = query.where('t.state', '=', 'reviewed');
    if (!rules.outdated) query = query.where('t.outdated_from', 'is', null);
    return query;
  }

  /** The delivered translations into `lang`, by phrase. */
  approved(projectId: number, lang: string, rules: DeliveryRules = {}) {
    return this.delivered(projectId, rules)
      .select(['p.key', 'p.context', 't.value'])
      .where('t.lang', '=', lang)
      .orderBy('p.id')
      .execute();
  }

  /** The languages with at least one delivered translation. */
  async deliveredLanguages(projectId: number, rules: DeliveryRules): Promise<string[]> {
    const rows = await this.delivered(projectId, rules).select('t.lang').groupBy('t.lang').execute();
    return rows.map((row) => row.lang);
  }

  /** Every phrase not in the trash with its translation into `lang` (if any), by id: what a file holds. */
  fileUnits(projectId: number, lang: string) {
    return this.db
      .selectFrom('phrases as p')
      .leftJoin('translations as t', (join) => join.onRef('t.phrase_id', '=', 'p.id').on('t.lang', '=', lang))
      .select(['p.id', 'p.key', 'p.context', 't.value', 't.state'])
      .where('p.project_id', '=', projectId)
      .where('p.status', '!=', 'trash')
      .orderBy('p.id')
      .execute();
  }

  /** The current translations of the phrases into `lang`, by phrase id. */
  async valuesOf(lang: string, phraseIds: number[], db: Db = this.db): Promise<Map<number, string>> {
    const values = new Map<number, string>();
    for (const part of chunks(phraseIds, 500)) {
      const rows = await db
        .selectFrom('translations')
        .select(['phrase_id', 'value'])
        .where('lang', '=', lang)
        .where('phrase_id', 'in', part)
        .execute();
      for (const row of rows) values.set(row.phrase_id, row.value);
    }
    return values;
  }

  /** One page of phrases with their translation into `filter.lang` (if any), newest first, and the total. */
  async page(projectId: number, filter: PageFilter) {
    let base = this.db
      .selectFrom('phrases as p')
      .leftJoin('translations as t', (join) =>
        join.onRef('t.phrase_id', '=', 'p.id').on('t.lang', '=', filter.lang),
      )
      .where('p.project_id', '=', projectId);
    if (filter.status) base = base.where('p.status', '=', filter.status);
    if (filter.state) base = base.where('t.state', '=', filter.state);
    if (filter.translated === 'yes') base = base.where('t.id', 'is not', null);
    if (filter.translated === 'no') base = base.where('t.id', 'is', null);
    if (filter.outdated === 'yes') base = base.where('t.outdated_from', 'is not', null);
    if (filter.outdated === 'no') base = base.where('t.outdated_from', 'is', null);
    if (filter.ids) base = base.where('p.id', 'in', filter.ids);
    const search = filter.search?.trim();
    if (search) {
      const pattern = `%${likeEscape(search.toLowerCase())}%`;
      const like = (column: 'p.key' | 'p.context' | 't.value') =>
        sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
      const inUrl = sql<boolean>`exists (select 1 from phrase_urls u where u.phrase_id = p.id and lower(u.url) like ${pattern} escape '\\')`;
      const field = filter.searchField;
      base = base.where(({ or }) =>
        field === 'all'
          ? or([like('p.key'), like('p.context'), like('t.value'), inUrl])
          : field === 'url'
            ? inUrl
            : like(field === 'value' ? 't.value' : field === 'context' ? 'p.context' : 'p.key'),
      );
    }
    const total = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const rows = await base
      .select([
        'p.id',
        'p.key',
        'p.context',
        'p.status',
        'p.var_slots',
        'p.slot_texts',
        't.value',
        't.id as translation_id',
        't.state',
        't.suggestion',
        't.outdated_from',
        sql<number>`case when exists (select 1 from phrase_screenshots s where s.phrase_id = p.id and s.png is not null) then 1 else 0 end`.as(
          'has_screenshot',
        ),
      ])
      .orderBy('p.id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return { rows, total: Number(total.count) };
  }

  /** The URLs the phrases were seen on, by URL. */
  urlsOf(phraseIds: number[]) {
    if (!phraseIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('phrase_urls')
      .select(['phrase_id', 'url'])
      .where('phrase_id', 'in', phraseIds)
      .orderBy('url')
      .execute();
  }

  async phrasesByHash(projectId: number, hashes: string[], db: Db = this.db) {
    const found = [];
    for (const part of chunks(hashes, 500)) {
      found.push(
        ...(await db
          .selectFrom('phrases')
          .select(['id', 'key', 'key_hash'])
          .where('project_id', '=', projectId)
          .where('key_hash', 'in', part)
          .execute()),
      );
    }
    return found;
  }

  async phrasesByIds(projectId: number, ids: number[], db: Db = this.db) {
    const found = [];
    for (const part of chunks(ids, 500)) {
      found.push(
        ...(await db
          .selectFrom('phrases')
          .select(['id', 'key'])
          .where('project_id', '=', projectId)
          .where('id', 'in', part)
          .execute()),
      );
    }
    return found;
  }

  /** How many of the phrases already have a translation into `lang`. */
  async countExisting(lang: string, phraseIds: number[], db: Db = this.db): Promise<number> {
    let existing = 0;
    for (const part of chunks(phraseIds, 500)) {
      const row = await db
        .selectFrom('translations')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('lang', '=', lang)
        .where('phrase_id', 'in', part)
        .executeTakeFirstOrThrow();
      existing += Number(row.count);
    }
    return existing;
  }

  /** Creates or replaces the translations of one language (phrase id → value), with their history. */
  save(
    projectId: number,
    lang: string,
    values: Map<number, string>,
    author: Authorship,
    db: Db = this.db,
  ): Promise<WriteOutcome> {
    return saveTranslations(db, projectId, lang, values, author);
  }

  /** The translation of a phrase into `lang`, if any. */
  current(projectId: number, phraseId: number, lang: string, db: Db = this.db) {
    return db
      .selectFrom('translations')
      .select(['id', 'phrase_id', 'lang', 'value', 'state'])
      .where('project_id', '=', projectId)
      .where('phrase_id', '=', phraseId)
      .where('lang', '=', lang)
      .executeTakeFirst();
  }

  byId(projectId: number, id: number, db: Db = this.db) {
    return db
      .selectFrom('translations')
      .select(['id', 'phrase_id', 'lang', 'value', 'state'])
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Deletes one translation and records it in the history, in one transaction; false when there is none. */
  deleteOne(projectId: number, id: number, author: Omit<Authorship, 'state'>, db?: Db): Promise<boolean> {
    const work = async (trx: Db) => {
      const row = await this.byId(projectId, id, trx);
      if (!row) return false;
      await trx.deleteFrom('translations').where('id', '=', id).execute();
      await recordHistory(
        trx,
        [{ projectId, phraseId: row.phrase_id, lang: row.lang, old: row, next: undefined }],
        author,
      );
      return true;
    };
    return db ? work(db) : this.transaction(work);
  }

  /** Moves translations (by id) to a state (no longer outdated), recording each move; the ids that moved. */
  setState(projectId: number, ids: number[], author: Authorship): Promise<number[]> {
    return this.transaction(async (trx) => {
      const moved: number[] = [];
      for (const part of chunks(ids, 500)) {
        const rows = await trx
          .selectFrom('translations')
          .select(['id', 'phrase_id', 'lang', 'value', 'state'])
          .where('project_id', '=', projectId)
          .where('id', 'in', part)
          // Reviewing an outdated translation says it is still right.
          .where((eb) => eb.or([eb('state', '!=', author.state), eb('outdated_from', 'is not', null)]))
          .execute();
        if (!rows.length) continue;
        await trx
          .updateTable('translations')
          .set({ state: author.state, outdated_from: null, updated_at: nowIso() })
          .where(
            'id',
            'in',
            rows.map((row) => row.id),
          )
          .execute();
        await recordHistory(
          trx,
          rows.map((row) => ({
            projectId,
            phraseId: row.phrase_id,
            lang: row.lang,
            old: row,
            next: { value: row.value, state: author.state },
          })),
          author,
        );
        for (const lang of new Set(rows.map((row) => row.lang))) {
          const ofLang = rows.filter((row) => row.lang === lang);
          await remember(
            trx,
            projectId,
            lang,
            ofLang.map((row) => ({ phraseId: row.phrase_id, value: row.value, state: author.state })),
          );
        }
        moved.push(...rows.map((row) => row.id));
      }
      return moved;
    });
  }

  /** The changes of one phrase's translation into `lang`, newest first. */
  history(projectId: number, phraseId: number, lang: string) {
    return this.db
      .selectFrom('translation_history')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('phrase_id', '=', phraseId)
      .where('lang', '=', lang)
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
  }

  /** The languages of translations (by id), and of history entries (by id), for role checks. */
  async languagesOf(projectId: number, table: 'translations' | 'translation_history', ids: number[]) {
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom(table)
      .select('lang')
      .distinct()
      .where('project_id', '=', projectId)
      .where('id', 'in', ids)
      .execute();
    return rows.map((row) => row.lang);
  }

  historyEntry(projectId: number, id: number) {
    return this.db
      .selectFrom('translation_history')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  }
}
