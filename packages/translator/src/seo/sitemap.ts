import type { SiteUrls } from './site-urls.ts';

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/**
 * A sitemap of the site's pages in `languages` (null: the original), each with its `hreflang` alternates
 * in every language, as search engines read them (sitemaps.org with xhtml:link).
 */
export function sitemapXml(
  site: SiteUrls,
  pages: URL[],
  languages: (string | null)[],
  writtenIn: string | null = null,
): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const page of pages) {
    const alternates = site
      .alternates(page, writtenIn)
      .map(
        ({ hreflang, href }) =>
          `<xhtml:link rel="alternate" hreflang="${escapeXml(hreflang)}" href="${escapeXml(href)}"/>`,
      )
      .join('');
    for (const language of languages) {
      const loc = language ? site.inLanguage(page, language) : page.href;
      lines.push(`<url><loc>${escapeXml(loc)}</loc>${alternates}</url>`);
    }
  }
  lines.push('</urlset>', '');
  return lines.join('\n');
}
