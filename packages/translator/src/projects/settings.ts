import { Type, type Static } from 'typebox';
import { validationFailed, type FieldErrors } from '@app/server-kit';
import { LANG_PATTERN } from '../common/schemas.ts';
import { normaliseOrigin } from './origins.ts';

/** Settings as stored (the provider key lives sealed in its own column). */
export interface StoredSettings {
  languages: string[];
  blockedTags: string[];
  inlineTags: string[];
  domContextSelectors: string[];
  contextDepth: number;
  domContextEnabled: boolean;
  screenshotsEnabled: boolean;
  /** Origins whose pages may use the page key (see origins.ts). */
  allowedOrigins: string[];
  /** GET /api/translations delivers only `reviewed` translations. */
  deliverReviewedOnly: boolean;
  /** Which machine translation AI jobs use: an OpenAI-compatible model, or DeepL. */
  translationEngine: TranslationEngine;
  /** The project's translation memory is pooled with every other project that shares its memory. */
  sharedMemory: boolean;
  /** GET /api/translations also delivers outdated translations (carried over from a changed text). */
  deliverOutdated: boolean;
  /**
   * SEO mode: the origin (`https://www.shop.example`) whose pages `/seo/:project/:lang/…` serves
   * translated; '' leaves it off.
   */
  seoOrigin: string;
  /** The site's public origin, for canonical and alternate links and sitemaps; '' means seoOrigin. */
  seoPublicUrl: string;
  /** SEO mode renders each page in a browser first: for sites whose scripts render their text. */
  seoPrerender: boolean;
}

export type TranslationEngine = 'openai' | 'deepl';
const Engine = Type.Union([Type.Literal('openai'), Type.Literal('deepl')]);

export const DEFAULT_SETTINGS: StoredSettings = {
  languages: [],
  blockedTags: [],
  inlineTags: ['a', 'abbr', 'b', 'em', 'i', 'mark', 'small', 'span', 'strong', 'sub', 'sup', 'u'],
  domContextSelectors: [],
  contextDepth: 0,
  domContextEnabled: false,
  screenshotsEnabled: false,
  allowedOrigins: [],
  deliverReviewedOnly: false,
  translationEngine: 'openai',
  sharedMemory: false,
  deliverOutdated: false,
  seoOrigin: '',
  seoPublicUrl: '',
  seoPrerender: false,
};

const TagList = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 200 });

/** Every field optional; unknown fields are dropped by the validator. */
export const SettingsPatch = Type.Object({
  languages: Type.Optional(Type.Array(Type.String({ maxLength: 35 }), { maxItems: 200 })),
  /**
   * Write-only. A string sets it, null clears it, an empty string or absence keeps it. A type list (not a
   * union) so the validator's type coercion never turns null into "".
   */
  translationProviderApiKey: Type.Optional(
    Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 500 }),
  ),
  blockedTags: Type.Optional(TagList),
  inlineTags: Type.Optional(TagList),
  domContextSelectors: Type.Optional(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 100 })),
  contextDepth: Type.Optional(Type.Integer()),
  domContextEnabled: Type.Optional(Type.Boolean()),
  screenshotsEnabled: Type.Optional(Type.Boolean()),
  allowedOrigins: Type.Optional(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 100 })),
  deliverReviewedOnly: Type.Optional(Type.Boolean()),
  translationEngine: Type.Optional(Engine),
  sharedMemory: Type.Optional(Type.Boolean()),
  deliverOutdated: Type.Optional(Type.Boolean()),
  seoOrigin: Type.Optional(Type.String({ maxLength: 300 })),
  seoPublicUrl: Type.Optional(Type.String({ maxLength: 300 })),
  seoPrerender: Type.Optional(Type.Boolean()),
});
export type SettingsPatch = Static<typeof SettingsPatch>;

/** Settings as the client sees them; the provider key is never sent back, only whether it is set. */
export const SettingsView = Type.Object({
  languages: Type.Array(Type.String()),
  translationProviderApiKey: Type.String(),
  translationProviderApiKeySet: Type.Boolean(),
  blockedTags: Type.Array(Type.String()),
  inlineTags: Type.Array(Type.String()),
  domContextSelectors: Type.Array(Type.String()),
  contextDepth: Type.Integer(),
  domContextEnabled: Type.Boolean(),
  screenshotsEnabled: Type.Boolean(),
  allowedOrigins: Type.Array(Type.String()),
  deliverReviewedOnly: Type.Boolean(),
  translationEngine: Engine,
  sharedMemory: Type.Boolean(),
  deliverOutdated: Type.Boolean(),
  seoOrigin: Type.String(),
  seoPublicUrl: Type.String(),
  seoPrerender: Type.Boolean(),
});
export type SettingsView = Static<typeof SettingsView>;

export const CrawlerConfig = Type.Object({
  blockedTags: Type.Array(Type.String()),
  inlineTags: Type.Array(Type.String()),
  domContextSelectors: Type.Array(Type.String()),
  contextDepth: Type.Integer(),
  domContextEnabled: Type.Boolean(),
  screenshotsEnabled: Type.Boolean(),
  /** SEO mode is on: the site has per-language pages (`/fr/…`), which the language switcher links to. */
  languagePaths: Type.Boolean(),
});

const LANG = new RegExp(LANG_PATTERN);
const TAG = /^[a-z][a-z0-9-]*$/;

export function parseStoredSettings(json: string): StoredSettings {
  return { ...DEFAULT_SETTINGS, ...(JSON.parse(json) as Partial<StoredSettings>) };
}

/** What the settings check about the addresses they name, beyond their form. */
export interface OriginChecks {
  /**
   * The translator's own addresses: a site's pages (their scripts included) must never be served, nor
   * fetched, on the dashboard's origin.
   */
  isOwnOrigin?: (origin: string) => boolean;
  /** Why the outbound policy refuses to fetch pages from this SEO origin, or undefined. */
  seoOriginRefusal?: (origin: string) => Promise<string | undefined>;
}

/**
 * Why the outbound policy refuses the patch's seoOrigin (resolved before the write, outside its
 * transaction), or undefined.
 */
export async function seoOriginRefusal(patch: SettingsPatch, checks: OriginChecks) {
  const site = patch.seoOrigin === undefined ? undefined : siteOrigin(patch.seoOrigin);
  return site ? checks.seoOriginRefusal?.(site) : undefined;
}

/**
 * Applies a patch to stored settings, checking the rules a schema cannot express (422 with fields);
 * `seoRefusal` is what seoOriginRefusal found.
 */
export function applySettingsPatch(
  current: StoredSettings,
  patch: SettingsPatch,
  { isOwnOrigin = () => false }: OriginChecks = {},
  seoRefusal?: string,
): StoredSettings {
  const fields: FieldErrors = {};
  const next = { ...current };
  if (patch.languages !== undefined) {
    const seen = new Set<string>();
    const languages: string[] = [];
    patch.languages.forEach((raw, index) => {
      const code = raw.trim().replace(/_/g, '-');
      if (!LANG.test(code))
        fields[`languages.${index}`] = `"${raw}" is not a language code such as fr or pt-BR`;
      else if (!seen.has(code.toLowerCase())) {
        seen.add(code.toLowerCase());
        languages.push(code);
      }
    });
    next.languages = languages;
  }
  for (const name of ['blockedTags', 'inlineTags'] as const) {
    const list = patch[name];
    if (list === undefined) continue;
    const tags = [...new Set(list.map((tag) => tag.trim().toLowerCase()))];
    tags.forEach((tag, index) => {
      if (!TAG.test(tag)) fields[`${name}.${index}`] = `"${tag}" is not an HTML tag name`;
    });
    next[name] = tags;
  }
  if (patch.domContextSelectors !== undefined) {
    next.domContextSelectors = patch.domContextSelectors.map((s) => s.trim()).filter(Boolean);
  }
  if (patch.contextDepth !== undefined) {
    if (patch.contextDepth < 0 || patch.contextDepth > 10) fields.contextDepth = 'must be between 0 and 10';
    next.contextDepth = patch.contextDepth;
  }
  if (patch.allowedOrigins !== undefined) {
    const origins: string[] = [];
    patch.allowedOrigins.forEach((raw, index) => {
      const result = normaliseOrigin(raw);
      if ('problem' in result) fields[`allowedOrigins.${index}`] = `"${raw}" ${result.problem}`;
      else if (!origins.includes(result.origin)) origins.push(result.origin);
    });
    next.allowedOrigins = origins;
  }
  if (patch.domContextEnabled !== undefined) next.domContextEnabled = patch.domContextEnabled;
  if (patch.screenshotsEnabled !== undefined) next.screenshotsEnabled = patch.screenshotsEnabled;
  if (patch.deliverReviewedOnly !== undefined) next.deliverReviewedOnly = patch.deliverReviewedOnly;
  if (patch.translationEngine !== undefined) next.translationEngine = patch.translationEngine;
  if (patch.sharedMemory !== undefined) next.sharedMemory = patch.sharedMemory;
  if (patch.deliverOutdated !== undefined) next.deliverOutdated = patch.deliverOutdated;
  if (patch.seoPrerender !== undefined) next.seoPrerender = patch.seoPrerender;
  for (const name of ['seoOrigin', 'seoPublicUrl'] as const) {
    const raw = patch[name];
    if (raw === undefined) continue;
    const site = siteOrigin(raw);
    if (site === undefined) fields[name] = `"${raw}" is not an origin such as https://www.shop.example`;
    else if (site && isOwnOrigin(site))
      fields[name] =
        `"${raw}" is this translator’s own address: name the site’s own origin, whose web server sends ` +
        'the language addresses here';
    else if (name === 'seoOrigin' && seoRefusal)
      fields[name] =
        `"${raw}" cannot be fetched: ${seoRefusal}. The translator fetches a site's pages only from ` +
        'public https addresses; to serve a site on an internal address or over plain http, an ' +
        `administrator adds its host to TRANSLATOR_SEO_ORIGIN_ALLOWLIST (such as ${new URL(site).host}) ` +
        'and restarts the translator';
    else next[name] = site;
  }
  if (Object.keys(fields).length) throw validationFailed(fields, 'Some settings are invalid.');
  return next;
}

/** `https://Shop.example/` → `https://shop.example`; '' stays ''; undefined when not an http(s) origin. */
function siteOrigin(raw: string): string | undefined {
  const text = raw.trim();
  if (!text) return '';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  return bare && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : undefined;
}
