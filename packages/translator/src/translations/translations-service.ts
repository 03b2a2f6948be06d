import { badRequest, notFound, type FieldErrors } from '@app/server-kit';
import type { PhraseStatus, TranslationState } from '../db/schema.ts';
import type { TranslatorContext } from '../context.ts';
import type { ChangeFeed } from '../changes.ts';
import { normaliseKey, slotSignature, type VarSlot } from '@app/slots';
import { phraseHash } from '../phrases/phrases-service.ts';
import { languageName } from '../projects/languages.ts';
import type { StoredSettings } from '../projects/settings.ts';
import { DeliveryCache, type DeliveryEntry } from './delivery-cache.ts';
import type { DeliveryRules, TranslationsRepository } from './translations-repository.ts';
import type { Authorship } from './translation-writes-repository.ts';
import type { ProjectRef } from '../projects/key-cache.ts';
import type { CacheRecorder } from '@app/server-kit';
import { fail, failAs } from '../errors/catalogue.ts';
import { qualityIssues, type QualityIssue } from './quality-checks.ts';
import type { GlossaryRules } from '../glossary/glossary-check.ts';

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
  state?: TranslationState | undefined;
  search?: string | undefined;
  searchField?: 'key' | 'value' | 'context' | 'url' | 'all' | undefined;
  translated?: 'yes' | 'no' | undefined;
  /** Only outdated translations ('yes'), or none of them ('no'). */
  outdated?: 'yes' | 'no' | undefined;
  /** Only these phrases. */
  ids?: number[] | undefined;
  page: number;
  limit: number;
}

export interface ListRow {
  id: number;
  key: string;
  context: string;
  status: PhraseStatus;
  varSlots: VarSlot[];
  /** The words inside the `{{text:N}}` slots as the page showed them (empty until a page reports them). */
  slotTexts: string[];
  /** Whether a screenshot shows where the phrase appears (GET /api/phrases/{id}/screenshot). */
  hasScreenshot: boolean;
  value: string | null;
  translated: boolean;
  translationId: number | null;
  /** The translation's state; null when there is none. */
  state: TranslationState | null;
  /** An AI job's text it was not allowed to put in place of a person's translation. */
  suggestion: string | null;
  /** The source text an outdated translation was made for (the phrase replaced it on its page). */
  outdatedFrom: string | null;
  /** What the quality checks find in the translation (none without one). */
  checks: QualityIssue[];
  urls: string[];
}

export interface ExportDocument {
  languages: string[];
  languageNames: Record<string, string>;
  translations: Record<string, Translation[]>;
  timestamp: number;
}

const URLS_PER_ROW = 20;

const deliveryRules = ({ settings }: ProjectRef): DeliveryRules => ({
  reviewedOnly: settings.deliverReviewedOnly,
  outdated: settings.deliverOutdated,
});

/** What the service asks of its repository (the specs hand it an in-memory one). */
export type TranslationsStore = Pick<
  TranslationsRepository,
  | 'transaction'
  | 'approved'
  | 'deliveredLanguages'
  | 'page'
  | 'urlsOf'
  | 'phrasesByHash'
  | 'phrasesByIds'
  | 'countExisting'
  | 'save'
  | 'deleteOne'
>;

export class TranslationsService {
  readonly cache: DeliveryCache;
  private readonly lookups: CacheRecorder;

  constructor(
    ctx: Pick<TranslatorContext, 'config' | 'metrics'>,
    private readonly translations: TranslationsStore,
    private readonly changes: ChangeFeed,
    private readonly glossary: GlossaryRules,
  ) {
    this.cache = new DeliveryCache(ctx.config.cacheTtlSeconds * 1000);
    this.lookups = ctx.metrics.cache('delivery');
    changes.on('data', (projectId) =>
      projectId === undefined ? this.cache.clear() : this.cache.invalidate(projectId),
    );
  }

  /**
   * The approved translations of one language (reviewed ones only when the project asks), as cached
   * bytes with their ETag. A change of that setting drops the project's entries (see ProjectsService).
   */
  deliver(project: ProjectRef, lang: string): DeliveryEntry | Promise<DeliveryEntry> {
    const hit = this.cache.peek(project.id, lang);
    if (hit) {
      this.lookups.hit();
      return hit;
    }
    this.lookups.miss();
    return this.cache.get(project.id, lang, () =>
      this.translations.approved(project.id, lang, deliveryRules(project)),
    );
  }

  /** The languages `deliver` answers with at least one translation, cached and dropped with its entries. */
  deliveredLanguages(project: ProjectRef): Promise<ReadonlySet<string>> {
    return this.cache.languages(project.id, () =>
      this.translations.deliveredLanguages(project.id, deliveryRules(project)),
    );
  }

  approved(projectId: number, lang: string): Promise<Translation[]> {
    return this.translations.approved(projectId, lang);
  }

  async list(projectId: number, query: ListQuery) {
    if (query.translated && !query.lang) {
      throw badRequest('The translated filter needs a lang.', { translated: 'needs lang' });
    }
    if (query.outdated && !query.lang) {
      throw badRequest('The outdated filter needs a lang.', { outdated: 'needs lang' });
    }
    const { rows, total } = await this.translations.page(projectId, {
      lang: query.lang ?? '',
      status: query.status,
      state: query.state,
      translated: query.translated,
      outdated: query.outdated,
      ids: query.ids,
      search: query.search,
      searchField: query.searchField ?? 'key',
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    });
    const rules = query.lang ? await this.glossary.rulesFor(projectId, query.lang) : [];
    const urls = new Map<number, string[]>();
    for (const row of await this.translations.urlsOf(rows.map((row) => row.id))) {
      const list = urls.get(row.phrase_id) ?? [];
      if (list.length < URLS_PER_ROW) list.push(row.url);
      urls.set(row.phrase_id, list);
    }
    const list: ListRow[] = rows.map((row) => ({
      id: row.id,
      key: row.key,
      context: row.context,
      status: row.status,
      varSlots: JSON.parse(row.var_slots) as VarSlot[],
      slotTexts: row.slot_texts ? (JSON.parse(row.slot_texts) as string[]) : [],
      hasScreenshot: Number(row.has_screenshot) === 1,
      value: row.value ?? null,
      translated: row.value !== null && row.value !== undefined,
      translationId: row.translation_id ?? null,
      state: row.state ?? null,
      suggestion: row.suggestion ?? null,
      outdatedFrom: row.outdated_from ?? null,
      checks: row.value === null || row.value === undefined ? [] : qualityIssues(row.key, row.value, rules),
      urls: urls.get(row.id) ?? [],
    }));
    return { rows: list, total, page: query.page, limit: query.limit };
  }

  /**
   * Creates or replaces translations of one language, all or nothing: the language must be configured,
   * every entry must name an existing phrase (by id, or by key and context — a concrete key is matched
   * through its slot pattern) and keep the phrase's slot tokens.
   */
  async upsert(
    projectId: number,
    settings: StoredSettings,
    lang: string,
    items: TranslationInput[],
    author: Authorship,
  ) {
    if (!settings.languages.includes(lang)) {
      throw fail(
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

    return this.translations
      .transaction(async (trx) => {
        const phrases = new Map<string, { id: number; key: string }>();
        const hashes = resolved.flatMap((item) => (item.hash ? [item.hash] : []));
        const ids = resolved.flatMap((item) => (item.id ? [item.id] : []));
        for (const row of await this.translations.phrasesByHash(projectId, hashes, trx))
          phrases.set(row.key_hash, row);
        for (const row of await this.translations.phrasesByIds(projectId, ids, trx))
          phrases.set(`#${row.id}`, row);
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
          throw fail(
            'unknown_phrase',
            `${Object.keys(missing).length} translation(s) name a phrase that does not exist; nothing was saved.`,
            missing,
          );
        }
        if (Object.keys(slotErrors).length) {
          throw fail(
            'slot_mismatch',
            'Some translations lose or add slot tokens; nothing was saved.',
            slotErrors,
          );
        }
        const phraseIds = [...byPhrase.keys()];
        const existing = await this.translations.countExisting(lang, phraseIds, trx);
        await this.translations.save(projectId, lang, byPhrase, author, trx);
        return {
          ok: true as const,
          saved: phraseIds.length,
          created: phraseIds.length - existing,
          updated: existing,
        };
      })
      .finally(() => this.changes.announce('data', projectId));
  }

  async deleteOne(projectId: number, id: number, actor: string): Promise<void> {
    if (!(await this.translations.deleteOne(projectId, id, { source: 'human', actor })))
      throw notFound(`Translation ${id} not found.`);
    this.changes.announce('data', projectId);
  }

  async exportDocument(projectId: number, settings: StoredSettings, lang?: string): Promise<ExportDocument> {
    if (lang !== undefined && !settings.languages.includes(lang)) {
      throw failAs(404, 'unknown_language', `Language "${lang}" is not configured for this project.`);
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
