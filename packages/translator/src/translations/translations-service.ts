import { sql } from 'kysely';
import { AppError, badRequest, notFound, type FieldErrors } from '@app/server-kit';
import type { PhraseStatus } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import type { ProjectChanges } from '../changes.ts';
import { chunks, likeEscape } from '../common/chunks.ts';
import { nowIso } from '../common/time.ts';
import { normaliseKey, slotSignature, type VarSlot } from '../phrases/slots.ts';
import { phraseHash } from '../phrases/phrases-service.ts';
import { languageName } from '../projects/languages.ts';
import type { StoredSettings } from '../projects/settings.ts';
import { DeliveryCache, type DeliveryEntry } from './delivery-cache.ts';
import type { CacheRecorder } from '@app/server-kit';

export interface Translation {
  key: string;
  context: string;
  value: string;
}

export interface TranslationInput {
  id?: number | undefined;
  key?: string | undefined;
  context?: string | undefined;
  value: string;
}

export interface ListQuery {
  lang?: string | undefined;
  status?: PhraseStatus | undefined;
  search?: string | undefined;
  searchField?: 'key' | 'value' | 'context' | 'url' | 'all' | undefined;
  translated?: 'yes' | 'no' | undefined;
  page: number;
  limit: number;
}

export interface ListRow {
  id: number;
  key: string;
  context: string;
  status: PhraseStatus;
  varSlots: VarSlot[];
  value: string | null;
  translated: boolean;
  translationId: number | null;
  urls: string[];
}

export interface ExportDocument {
  languages: string[];
  languageNames: Record<string, string>;
  translations: Record<string, Translation[]>;
  timestamp: number;
}

const URLS_PER_ROW = 20;

export class TranslationsService {
  readonly cache: DeliveryCache;
  private readonly lookups: CacheRecorder;

  constructor(
    private readonly ctx: TranslatorContext,
    private readonly changes: ProjectChanges,
  ) {
    this.cache = new DeliveryCache(ctx.config.cacheTtlSeconds * 1000);
    this.lookups = ctx.metrics.cache('delivery');
    changes.on('data', (projectId) =>
      projectId === undefined ? this.cache.clear() : this.cache.invalidate(projectId),
    );
  }

  /** The approved translations of one language, as cached bytes with their ETag. */
  deliver(projectId: number, lang: string): DeliveryEntry | Promise<DeliveryEntry> {
    const hit = this.cache.peek(projectId, lang);
    if (hit) {
      this.lookups.hit();
      return hit;
    }
    this.lookups.miss();
    return this.cache.get(projectId, lang, () => this.approved(projectId, lang));
  }

  async approved(projectId: number, lang: string): Promise<Translation[]> {
    return this.ctx.db
      .selectFrom('translations as t')
      .innerJoin('phrases as p', 'p.id', 't.phrase_id')
      .select(['p.key', 'p.context', 't.value'])
      .where('t.project_id', '=', projectId)
      .where('t.lang', '=', lang)
      .where('p.status', '=', 'approved')
      .orderBy('p.id')
      .execute();
  }

  async list(projectId: number, query: ListQuery) {
    if (query.translated && !query.lang) {
      throw badRequest('The translated filter needs a lang.', { translated: 'needs lang' });
    }
    const lang = query.lang ?? '';
    let base = this.ctx.db
      .selectFrom('phrases as p')
      .leftJoin('translations as t', (join) => join.onRef('t.phrase_id', '=', 'p.id').on('t.lang', '=', lang))
      .where('p.project_id', '=', projectId);
    if (query.status) base = base.where('p.status', '=', query.status);
    if (query.translated === 'yes') base = base.where('t.id', 'is not', null);
    if (query.translated === 'no') base = base.where('t.id', 'is', null);
    const search = query.search?.trim();
    if (search) {
      const pattern = `%${likeEscape(search.toLowerCase())}%`;
      const like = (column: 'p.key' | 'p.context' | 't.value') =>
        sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
      const inUrl = sql<boolean>`exists (select 1 from phrase_urls u where u.phrase_id = p.id and lower(u.url) like ${pattern} escape '\\')`;
      const field = query.searchField ?? 'key';
      base = base.where(({ or }) =>
        field === 'all'
          ? or([like('p.key'), like('p.context'), like('t.value'), inUrl])
          : field === 'url'
            ? inUrl
            : like(field === 'value' ? 't.value' : field === 'context' ? 'p.context' : 'p.key'),
      );
    }
    const totalRow = await base
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .select(['p.id', 'p.key', 'p.context', 'p.status', 'p.var_slots', 't.value', 't.id as translation_id'])
      .orderBy('p.id', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute();
    const urls = new Map<number, string[]>();
    if (rows.length) {
      const urlRows = await this.ctx.db
        .selectFrom('phrase_urls')
        .select(['phrase_id', 'url'])
        .where(
          'phrase_id',
          'in',
          rows.map((row) => row.id),
        )
        .orderBy('url')
        .execute();
      for (const row of urlRows) {
        const list = urls.get(row.phrase_id) ?? [];
        if (list.length < URLS_PER_ROW) list.push(row.url);
        urls.set(row.phrase_id, list);
      }
    }
    const list: ListRow[] = rows.map((row) => ({
      id: row.id,
      key: row.key,
      context: row.context,
      status: row.status,
      varSlots: JSON.parse(row.var_slots) as VarSlot[],
      value: row.value ?? null,
      translated: row.value !== null && row.value !== undefined,
      translationId: row.translation_id ?? null,
      urls: urls.get(row.id) ?? [],
    }));
    return { rows: list, total: Number(totalRow.count), page: query.page, limit: query.limit };
  }

  /**
   * Creates or replaces translations of one language, all or nothing: the language must be configured,
   * every entry must name an existing phrase (by id, or by key and context — a concrete key is matched
   * through its slot pattern) and keep the phrase's slot tokens.
   */
  async upsert(projectId: number, settings: StoredSettings, lang: string, items: TranslationInput[]) {
    if (!settings.languages.includes(lang)) {
      throw new AppError(
        422,
        'unknown_language',
        `Language "${lang}" is not configured for this project; add it to settings.languages first.`,
        { lang: 'is not configured' },
      );
    }
    const fields: FieldErrors = {};
    const resolved: { index: number; hash?: string; id?: number; value: string }[] = items.map(
      (item, index) => {
        if (item.id !== undefined) return { index, id: item.id, value: item.value };
        if (item.key === undefined) {
          fields[`translations.${index}`] = 'needs an id or a key';
          return { index, value: item.value };
        }
        return { index, hash: phraseHash(normaliseKey(item.key).key, item.context ?? ''), value: item.value };
      },
    );
    if (Object.keys(fields).length) throw badRequest('Every translation needs an id or a key.', fields);

    return this.ctx.db
      .transaction()
      .execute(async (trx) => {
        const phrases = new Map<string, { id: number; key: string }>();
        const hashes = resolved.flatMap((item) => (item.hash ? [item.hash] : []));
        const ids = resolved.flatMap((item) => (item.id ? [item.id] : []));
        for (const part of chunks(hashes, 500)) {
          const rows = await trx
            .selectFrom('phrases')
            .select(['id', 'key', 'key_hash'])
            .where('project_id', '=', projectId)
            .where('key_hash', 'in', part)
            .execute();
          for (const row of rows) phrases.set(row.key_hash, row);
        }
        for (const part of chunks(ids, 500)) {
          const rows = await trx
            .selectFrom('phrases')
            .select(['id', 'key'])
            .where('project_id', '=', projectId)
            .where('id', 'in', part)
            .execute();
          for (const row of rows) phrases.set(`#${row.id}`, row);
        }
        const byPhrase = new Map<number, string>();
        const missing: FieldErrors = {};
        const slotErrors: FieldErrors = {};
        for (const item of resolved) {
          const phrase = phrases.get(item.hash ?? `#${item.id}`);
          if (!phrase) {
            missing[`translations.${item.index}`] = item.hash
              ? 'no phrase has this key and context'
              : `no phrase ${item.id}`;
            continue;
          }
          if (slotSignature(item.value) !== slotSignature(phrase.key)) {
            slotErrors[`translations.${item.index}.value`] =
              'must contain exactly the slot tokens of the key';
          }
          byPhrase.set(phrase.id, item.value);
        }
        if (Object.keys(missing).length) {
          throw new AppError(
            422,
            'unknown_phrase',
            `${Object.keys(missing).length} translation(s) name a phrase that does not exist; nothing was saved.`,
            missing,
          );
        }
        if (Object.keys(slotErrors).length) {
          throw new AppError(
            422,
            'slot_mismatch',
            'Some translations lose or add slot tokens; nothing was saved.',
            slotErrors,
          );
        }
        const phraseIds = [...byPhrase.keys()];
        let existing = 0;
        for (const part of chunks(phraseIds, 500)) {
          const row = await trx
            .selectFrom('translations')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('lang', '=', lang)
            .where('phrase_id', 'in', part)
            .executeTakeFirstOrThrow();
          existing += Number(row.count);
        }
        const now = nowIso();
        for (const part of chunks(phraseIds, 500)) {
          await trx
            .insertInto('translations')
            .values(
              part.map((phraseId) => ({
                project_id: projectId,
                phrase_id: phraseId,
                lang,
                value: byPhrase.get(phraseId)!,
                created_at: now,
                updated_at: now,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['phrase_id', 'lang']).doUpdateSet((eb) => ({
                value: eb.ref('excluded.value'),
                updated_at: eb.ref('excluded.updated_at'),
              })),
            )
            .execute();
        }
        return {
          ok: true as const,
          saved: phraseIds.length,
          created: phraseIds.length - existing,
          updated: existing,
        };
      })
      .finally(() => this.changes.announce('data', projectId));
  }

  async deleteOne(projectId: number, id: number): Promise<void> {
    const result = await this.ctx.db
      .deleteFrom('translations')
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!result.numDeletedRows) throw notFound(`Translation ${id} not found.`);
    this.changes.announce('data', projectId);
  }

  async exportDocument(projectId: number, settings: StoredSettings, lang?: string): Promise<ExportDocument> {
    if (lang !== undefined && !settings.languages.includes(lang)) {
      throw notFound(`Language "${lang}" is not configured for this project.`, 'unknown_language');
    }
    const languages = lang === undefined ? settings.languages : [lang];
    const translations: Record<string, Translation[]> = {};
    for (const code of languages) translations[code] = await this.approved(projectId, code);
    return {
      languages,
      languageNames: Object.fromEntries(languages.map((code) => [code, languageName(code)])),
      translations,
      timestamp: Date.now(),
    };
  }
}
