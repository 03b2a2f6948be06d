import { sql } from 'kysely';
import { notFound } from '@app/server-kit';
import type { TranslatorContext } from '../context.ts';
import { likeEscape } from '../common/chunks.ts';
import { dayOf } from '../common/time.ts';
import type { StoredSettings } from '../projects/settings.ts';

export const ACTIVITY_DAYS = 30;

const statusCount = (status: string) => sql<number>`sum(case when p.status = ${status} then 1 else 0 end)`;

/** Read-only reports over a project's phrases, URLs and translations. */
export class AnalyticsService {
  constructor(private readonly ctx: TranslatorContext) {}

  async summary(projectId: number, settings: StoredSettings) {
    const { db } = this.ctx;
    const phrases = await db
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
    const urls = await db
      .selectFrom('phrase_urls')
      .select((eb) => eb.fn.count<number>('url').distinct().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    const translations = await db
      .selectFrom('translations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return {
      totalPhrases: Number(phrases.total),
      approvedPhrases: Number(phrases.approved ?? 0),
      pendingPhrases: Number(phrases.pending ?? 0),
      trashPhrases: Number(phrases.trash ?? 0),
      uniqueUrls: Number(urls.n),
      totalTranslations: Number(translations.n),
      languageCount: settings.languages.length,
      phrasesWithSlots: Number(phrases.with_slots ?? 0),
    };
  }

  /** Per configured language: approved phrases translated, and that as a whole percentage of approved phrases. */
  async languages(projectId: number, settings: StoredSettings) {
    const { db } = this.ctx;
    const approved = await db
      .selectFrom('phrases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .where('status', '=', 'approved')
      .executeTakeFirstOrThrow();
    const rows = await db
      .selectFrom('translations as t')
      .innerJoin('phrases as p', 'p.id', 't.phrase_id')
      .select(['t.lang', (eb) => eb.fn.countAll<number>().as('n')])
      .where('t.project_id', '=', projectId)
      .where('p.status', '=', 'approved')
      .groupBy('t.lang')
      .execute();
    const byLang = new Map(rows.map((row) => [row.lang, Number(row.n)]));
    const total = Number(approved.n);
    return settings.languages.map((lang) => {
      const translated = byLang.get(lang) ?? 0;
      return { lang, translated, coverage: total ? Math.round((translated * 100) / total) : 0 };
    });
  }

  async urls(projectId: number, query: { search?: string | undefined; limit: number; offset: number }) {
    let base = this.ctx.db
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

  async urlDetail(projectId: number, url: string) {
    const rows = await this.ctx.db
      .selectFrom('phrase_urls as u')
      .innerJoin('phrases as p', 'p.id', 'u.phrase_id')
      .select(['p.id', 'p.status'])
      .where('u.project_id', '=', projectId)
      .where('u.url', '=', url)
      .orderBy('p.id')
      .execute();
    if (!rows.length) throw notFound('No phrase was seen on this URL.');
    return {
      url,
      totalPhrases: rows.length,
      approved: rows.filter((row) => row.status === 'approved').length,
      pending: rows.filter((row) => row.status === 'pending').length,
      pendingKeyIds: rows.filter((row) => row.status === 'pending').map((row) => row.id),
    };
  }

  /** Phrases first seen per day (UTC) over the last 30 days, today included, oldest first, zeros too. */
  async activity(projectId: number, now = Date.now()) {
    const days = Array.from({ length: ACTIVITY_DAYS }, (_, i) =>
      dayOf(now - (ACTIVITY_DAYS - 1 - i) * 86_400_000),
    );
    const rows = await this.ctx.db
      .selectFrom('phrases')
      .select(['first_seen_day', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', '=', projectId)
      .where('first_seen_day', '>=', days[0]!)
      .groupBy('first_seen_day')
      .execute();
    const counts = new Map(rows.map((row) => [row.first_seen_day, Number(row.n)]));
    return days.map((day) => ({ day, count: counts.get(day) ?? 0 }));
  }

  async phraseDetail(projectId: number, id: number) {
    const phrase = await this.ctx.db
      .selectFrom('phrases')
      .select(['id', 'key', 'context', 'status'])
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!phrase) throw notFound(`Phrase ${id} not found.`);
    const translations = await this.ctx.db
      .selectFrom('translations')
      .select(['lang', 'value'])
      .where('phrase_id', '=', id)
      .where('project_id', '=', projectId)
      .orderBy('lang')
      .execute();
    return { ...phrase, translations };
  }
}
