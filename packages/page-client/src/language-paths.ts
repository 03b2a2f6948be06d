/**
 * The addresses of a page's languages. Normally `?lang=fr`; in SEO mode (the translator serves the site's
 * languages at `/fr/…`) the language address of the page, whose original is the path without the prefix.
 */
export class LanguagePaths {
  constructor(
    /** The language the translator rendered this page in (`<html data-loco-rendered>`), if it did. */
    readonly rendered: string | null,
    /** The site has language addresses (SEO mode). */
    readonly enabled: boolean,
  ) {}

  /** The path of the original page: on `/fr/about`, `/about`. */
  originalPath(): string {
    const path = location.pathname;
    if (!this.rendered) return path;
    const prefix = `/${this.rendered}`;
    if (path === prefix) return '/';
    return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path;
  }

  /** This page in `code` (null: the original). */
  hrefOf(code: string | null): string {
    if (this.enabled)
      return (
        location.origin + (code ? `/${code}` : '') + this.originalPath() + location.search + location.hash
      );
    const url = new URL(location.href);
    if (code) url.searchParams.set('lang', code);
    else url.searchParams.delete('lang');
    return url.href;
  }
}
