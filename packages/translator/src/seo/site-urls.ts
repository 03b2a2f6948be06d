import type { StoredSettings } from '../projects/settings.ts';

/** Paths that are files, not pages: their links are left as they are. */
const FILE = /\.(?!html?$|php$|aspx?$)[a-z0-9]{1,5}$/i;

/**
 * A project's site as SEO mode addresses it: pages at the public origin, and each language's version of
 * a page at `/<lang>` + its path. Built from the settings, never from a request's Host.
 */
export class SiteUrls {
  readonly public: string;
  private readonly origins: Set<string>;
  private readonly languages: string[];

  constructor(settings: Pick<StoredSettings, 'seoOrigin' | 'seoPublicUrl' | 'languages'>) {
    this.public = settings.seoPublicUrl || settings.seoOrigin;
    this.origins = new Set([this.public, settings.seoOrigin]);
    this.languages = settings.languages;
  }

  /** The public address of the page the origin served at `url`. */
  original(url: URL): URL {
    return new URL(this.public + url.pathname + url.search);
  }

  isInternal(url: URL): boolean {
    return this.origins.has(url.origin);
  }

  /** `href` resolved on the page at `base`, when it is an address on the site (not mail, not script). */
  resolve(href: string, base: URL): URL | undefined {
    if (/^\s*#/.test(href)) return undefined;
    try {
      const url = new URL(href, base);
      return /^https?:$/.test(url.protocol) && this.isInternal(url) ? url : undefined;
    } catch {
      return undefined;
    }
  }

  /** A page of the site (not a file), not already in a language. */
  isPage(url: URL): boolean {
    return !FILE.test(url.pathname) && this.languageOf(url.pathname) === undefined;
  }

  /** The language a path is in (`/fr/…` → fr), when it is one of the project's. */
  languageOf(pathname: string): string | undefined {
    const first = pathname.split('/')[1]?.toLowerCase();
    return this.languages.find((code) => code.toLowerCase() === first);
  }

  /**
   * The address of `url`'s page in `language`: absolute on the public origin, or rooted (`/fr/about`)
   * when the link was written without an origin (`written`).
   */
  inLanguage(url: URL, language: string, written?: string): string {
    const path = `/${language}${url.pathname}${url.search}${url.hash}`;
    return written !== undefined && !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(written.trim())
      ? path
      : this.public + path;
  }

  /** The `hreflang` alternates of a page: every language, and the original as x-default (and as its own language). */
  alternates(original: URL, writtenIn: string | null): { hreflang: string; href: string }[] {
    const list = [{ hreflang: 'x-default', href: original.href }];
    if (writtenIn && !this.languages.some((code) => code.toLowerCase() === writtenIn.toLowerCase()))
      list.push({ hreflang: writtenIn, href: original.href });
    for (const code of this.languages) list.push({ hreflang: code, href: this.inLanguage(original, code) });
    return list;
  }
}
