import { sql, type Kysely } from 'kysely';
import type { TranslatorDB } from '../db/schema.ts';
import { likeEscape } from '../common/chunks.ts';

const statusCount = (status: string) => sql<number>`sum(case when p.status = ${status} then 1 else 0 end)`;

/** The report queries over a project's phrases, URLs and translations (read-only). */
export class AnalyticsRepository {
  constructor(private readonly db: Kysely<TranslatorDB>) {}

  async phraseCounts(projectId: number) {
    const row = await this.db
      .selectFrom('phrases as p')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        statusCount('approved').as('approved'),
        statusCount('pending').as('pending'),
        statusCount('trash').as('trash'),
        sql<number>`sum(case when p.slot_count > 0 then 1 else 0 end)`.as('with_slots'),
      ])
      .where('p.project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return {
      total: Number(row.total),
      approved: Number(row.approved ?? 0),
      pending: Number(row.pending ?? 0),
      trash: Number(row.trash ?? 0),
      withSlots: Number(row.with_slots ?? 0),
    };
  }

  async distinctUrlCount(projectId: number): Promise<number> {
    const row = await this.db
      .selectFrom('phrase_urls')
      .select((eb) => eb.fn.count<number>('url').distinct().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Translations of the project, into `languages` only when given. */
  async translationCount(projectId: number, languages?: readonly string[]): Promise<number> {
    if (languages?.length === 0) return 0;
    let query = this.db
      .selectFrom('translations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId);
    if (languages) query = query.where('lang', 'in', languages);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async approvedCount(projectId: number): Promise<number> {
    const row = await this.db
      .selectFrom('phrases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .where('status', '=', 'approved')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Translations of approved phrases, per language. */
  async approvedTranslationsByLang(projectId: number): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('translations as t')
      .innerJoin('phrases as p', 'p.id', 't.phrase_id')
      .select(['t.lang', (eb) => eb.fn.countAll<number>().as('n')])
      .where('t.project_id', '=', projectId)
      .where('p.status', '=', 'approved')
      .groupBy('t.lang')
      .execute();
    return new Map(rows.map((row) => [row.lang, Number(row.n)]));
  }

  /** Each translation of an approved phrase with its source text, for the quality checks. */
  approvedTranslationTexts(projectId: number) {
    return this.db
      .selectFrom('translations as t')
      .innerJoin('phrases as p', 'p.id', 't.phrase_id')
      .select(['t.lang', 'p.key', 't.value'])
      .where('t.project_id', '=', projectId)
      .where('p.status', '=', 'approved')
      .execute();
  }

  /** URLs (optionally those containing `search`, case-insensitively) with their phrase counts, busiest first. */
  async urls(projectId: number, query: { search?: string | undefined; limit: number; offset: number }) {
    let base = this.db
      .selectFrom('phrase_urls as u')
      .innerJoin('phrases as p', 'p.id', 'u.phrase_id')
      .where('u.project_id', '=', projectId);
    const search = query.search?.trim();
    if (search)
      base = base.where(
        sql<boolean>`lower(u.url) like ${`%${likeEscape(search.toLowerCase())}%`} escape '\\'`,
      );
    const total = await base
      .select((eb) => eb.fn.count<number>('u.url').distinct().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .select((eb) => [
        'u.url',
        eb.fn.countAll<number>().as('phrase_count'),
        statusCount('approved').as('approved'),
        statusCount('pending').as('pending'),
      ])
      .groupBy('u.url')
      .orderBy('phrase_count', 'desc')
      .orderBy('u.url')
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return {
      total: Number(total.n),
      rows: rows.map((row) => ({
        url: row.url,
        phraseCount: Number(row.phrase_count),
        approved: Number(row.approved ?? 0),
        pending: Number(row.pending ?? 0),
      })),
    };
  }

  /** The page URLs phrases were seen on that start with `prefix`, in order, at most `limit`. */
  async pageUrls(projectId: number, prefix: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('phrase_urls')
      .select('url')
      .distinct()
      .where('project_id', '=', projectId)
      .where(sql<boolean>`url like ${`${likeEscape(prefix)}%`} escape '\\'`)
      .orderBy('url')
      .limit(limit)
      .execute();
    return rows.map((row) => row.url);
  }

  phrasesOnUrl(projectId: number, url: string) {
    return this.db
      .selectFrom('phrase_urls as u')
      .innerJoin('phrases as p', 'p.id', 'u.phrase_id')
      .select(['p.id', 'p.status'])
      .where('u.project_id', '=', projectId)
      .where('u.url', '=', url)
      .orderBy('p.id')
      .execute();
  }

  /** Phrases first seen per day since `firstDay`. */
  async firstSeenPerDay(projectId: number, firstDay: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('phrases')
      .select(['first_seen_day', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', '=', projectId)
      .where('first_seen_day', '>=', firstDay)
      .groupBy('first_seen_day')
      .execute();
    return new Map(rows.map((row) => [row.first_seen_day, Number(row.n)]));
  }

  phrase(projectId: number, id: number) {
    return this.db
      .selectFrom('phrases')
      .select(['id', 'key', 'context', 'status'])
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  translationsOf(projectId: number, phraseId: number) {
    return this.db
      .selectFrom('translations')
      .select(['lang', 'value'])
      .where('phrase_id', '=', phraseId)
      .where('project_id', '=', projectId)
      .orderBy('lang')
      .execute();
  }
}
