import { createHash } from 'node:crypto';
import { documentRenderer } from '@app/page-client';
import type { TranslatorContext } from '../context.ts';
import type { ChangeFeed } from '../changes.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { ProjectRef } from '../projects/key-cache.ts';
import type { TranslationsService } from '../translations/translations-service.ts';
import type { PhrasesService } from '../phrases/phrases-service.ts';
import type { AnalyticsService } from '../analytics/analytics-service.ts';
import { etagOf } from '../http/cached-body.ts';
import { fail } from '../errors/catalogue.ts';
import { allowedPageOrigin } from '../projects/origins.ts';
import { renderLanguagePage } from './language-page.ts';
import { OriginPages } from './origin-pages.ts';
import { Prerenderer } from './prerenderer.ts';
import { RenderedPages, type LanguageAnswer, type RenderedPage } from './rendered-pages.ts';
import { SiteUrls } from './site-urls.ts';
import { sitemapXml } from './sitemap.ts';

/** Pages whose registration is remembered (each process), before the memory starts again. */
const REGISTERED_PAGES = 10_000;
/** A page registered again after this, even unchanged (its phrases may have been deleted meanwhile). */
const REGISTER_AGAIN_MS = 10 * 60_000;
/** A sitemap holds at most 50,000 addresses. */
const SITEMAP_LIMIT = 50_000;

interface Site {
  project: ProjectRef;
  /** The language as the project spells it; undefined for the original. */
  language: string | undefined;
  /** The site's addresses in the languages with translations delivered (the others have no pages yet). */
  urls: SiteUrls;
  /** The delivered languages, in the project's order. */
  languages: string[];
  /** The language asked for is one of the project's, with nothing delivered yet. */
  undelivered?: boolean;
}

/**
 * SEO mode: a project's site served in its languages at `/<lang>/…` as translated HTML that needs no
 * JavaScript (search engines, link previews), and the sitemaps that list those pages. The phrases a
 * rendered page holds are registered as the page client would register them.
 */
export class SeoService {
  private readonly origins: OriginPages;
  private readonly pages: RenderedPages;
  private readonly prerenderer: Prerenderer;
  /**
   * What was last registered for each page (a digest of its phrases) and when: a re-render within
   * REGISTER_AGAIN_MS of the same phrases writes nothing.
   */
  private readonly registered = new Map<string, { digest: string; at: number }>();

  constructor(
    private readonly ctx: Pick<TranslatorContext, 'config' | 'log'>,
    private readonly services: {
      projects: ProjectsService;
      translations: TranslationsService;
      phrases: PhrasesService;
      analytics: AnalyticsService;
    },
    changes: ChangeFeed,
    chromiumPath: string,
  ) {
    this.origins = new OriginPages(ctx.config.seo, ctx.log);
    this.prerenderer = new Prerenderer(chromiumPath, ctx.config.seo, ctx.log);
    this.pages = new RenderedPages(ctx.config.seo.cachedPages);
    const drop = (projectId: number | undefined) =>
      projectId === undefined ? this.pages.clear() : this.pages.invalidate(projectId);
    changes.on('data', drop);
    changes.on('keys', drop);
  }

  /** The page when it is rendered and fresh, without a promise (the hot path). */
  cached(projectId: number, language: string, path: string): RenderedPage | undefined {
    return this.pages.peek(projectId, language, path);
  }

  /** The page of `path` (path and query of the original page) in `language`, asked for `host`. */
  async page(projectId: number, host: string, language: string, path: string): Promise<LanguageAnswer> {
    const site = await this.site(projectId, host, language);
    // Its page would be the original marked as that language: the original it is, until there is more.
    if (site.undelivered)
      return {
        kind: 'redirect',
        status: 302,
        location: originalPage(site, path),
      };
    const code = site.language!;
    return this.pages.render(projectId, code, path, () => this.render(site, code, path));
  }

  /** The sitemap of the site's pages in one language, or in all of them (and the original) without one. */
  async sitemap(projectId: number, host: string, language?: string): Promise<string> {
    const site = await this.site(projectId, host, language);
    const { project, language: code, urls } = site;
    if (site.undelivered) throw notTranslated(language!);
    const { seoOrigin } = project.settings;
    const languages = code ? [code] : [null, ...site.languages];
    const perLanguage = Math.floor(SITEMAP_LIMIT / languages.length);
    const seen = new Map<string, URL>();
    for (const prefix of new Set([urls.public, seoOrigin])) {
      for (const address of await this.services.analytics.pageUrls(projectId, `${prefix}/`, perLanguage)) {
        const page = urls.original(new URL(address));
        if (urls.isPage(page) && seen.size < perLanguage) seen.set(page.href, page);
      }
    }
    return sitemapXml(urls, [...seen.values()], languages);
  }

  /**
   * The project's site, for a request to `host` (port included). The pages are the site's HTML, its
   * scripts included: they are served only for the site's own host, so they never run on the
   * translator's origin (the dashboard's), nor on another port of its host (which shares its cookies).
   */
  private async site(projectId: number, host: string, language: string | undefined): Promise<Site> {
    const project = await this.services.projects.ref(projectId);
    // A project that does not exist reads like one with SEO mode off: ids are not to be probed.
    if (!project?.settings.seoOrigin) throw fail('seo_disabled');
    const delivered = await this.services.translations.deliveredLanguages(project);
    const languages = project.settings.languages.filter((code) => delivered.has(code));
    const urls = new SiteUrls({ ...project.settings, languages });
    if (new URL(urls.public).host !== host) throw fail('wrong_host');
    if (language === undefined) return { project, language, urls, languages };
    const code = urls.languageOf(`/${language}`);
    if (code) return { project, language: code, urls, languages };
    if (new SiteUrls(project.settings).languageOf(`/${language}`))
      return { project, language, urls, languages, undelivered: true };
    throw notTranslated(language);
  }

  private async render(site: Site, language: string, path: string): Promise<LanguageAnswer> {
    const { project, urls } = site;
    const { settings } = project;
    const prerender = settings.seoPrerender ? (url: URL) => this.prerenderer.render(url) : undefined;
    const answer = await this.origins.get(settings.seoOrigin, path, prerender);
    if (answer.kind === 'redirect') {
      const { location, status } = answer;
      const moved = urls.isInternal(location) && urls.isPage(location);
      return {
        kind: 'redirect',
        status,
        location: moved ? urls.inLanguage(location, language) : location.href,
      };
    }
    // A file (an image, a PDF): the original serves it.
    if (answer.kind === 'other')
      return {
        kind: 'redirect',
        status: 302,
        location: originalPage(site, path),
      };

    const delivered = await this.services.translations.deliver(project, language);
    const found: { key: string; context: string; slots?: string[] }[] = [];
    const html = renderLanguagePage({
      html: answer.html,
      url: answer.url,
      language,
      settings: { ...settings, languages: site.languages },
      translations: JSON.parse(delivered.body.toString('utf8')) as LanguagePageTranslations,
      renderer: await documentRenderer(),
      prerendered: settings.seoPrerender,
      register: (key, context, slots) =>
        found.push(slots?.length ? { key, context, slots } : { key, context }),
    });
    this.register(project.id, found, urls.original(answer.url), settings.allowedOrigins);
    const body = Buffer.from(html);
    return {
      kind: 'page',
      page: {
        status: answer.status,
        host: new URL(urls.public).host,
        body,
        etag: etagOf(body),
        expires: Date.now() + this.ctx.config.seo.originCacheSeconds * 1000,
      },
    };
  }

  /** Registers a page's phrases in the background, with the page key's caps, unless they are as last time. */
  private register(
    projectId: number,
    keys: { key: string; context: string }[],
    page: URL,
    allowedOrigins: readonly string[],
  ) {
    const url = page.origin + page.pathname;
    const id = `${projectId}\u0000${url}`;
    const digest = createHash('sha256').update(JSON.stringify(keys)).digest('base64url');
    const last = this.registered.get(id);
    if (!keys.length || (last?.digest === digest && Date.now() - last.at < REGISTER_AGAIN_MS)) return;
    if (this.registered.size >= REGISTERED_PAGES) this.registered.clear();
    this.registered.set(id, { digest, at: Date.now() });
    const { maxPendingPhrases, maxUrls } = this.ctx.config.pageKey;
    // A page off the allowed origins is not recorded (the dashboard would open it with an edit token).
    const onSite = allowedPageOrigin(allowedOrigins, url) ? url : undefined;
    this.services.phrases
      .register(projectId, keys, onSite, { maxPending: maxPendingPhrases, maxUrls })
      .catch((error: unknown) => {
        this.registered.delete(id);
        this.ctx.log.warn({ err: error }, 'seo: could not register the phrases of a page');
      });
  }

  /** Why the outbound policy refuses to fetch the pages of `origin`, or undefined. */
  originRefusal(origin: string): Promise<string | undefined> {
    return this.origins.refusal(origin);
  }

  async close() {
    await Promise.all([this.origins.close(), this.prerenderer.close()]);
  }
}

type LanguagePageTranslations = { key: string; context: string; value: string }[];

const notTranslated = (language: string) =>
  fail('not_found', `This site is not translated into "${language}": pick one of its languages.`);

/** The public address of the original page at `path` (built from the settings, never from Host). */
const originalPage = ({ urls, project }: Site, path: string) =>
  urls.original(new URL(project.settings.seoOrigin + path)).href;
