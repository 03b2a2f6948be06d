import { parseHTML } from 'linkedom';
import type { DocumentRenderer } from '@app/page-client';
import type { StoredSettings } from '../projects/settings.ts';
import { SiteUrls } from './site-urls.ts';

export interface LanguagePageInput {
  /** The origin's HTML and the address it was fetched from. */
  html: string;
  url: URL;
  language: string;
  settings: StoredSettings;
  translations: { key: string; context: string; value: string }[];
  renderer: DocumentRenderer;
  register(key: string, context: string, slots?: string[]): void;
}

const TRANSLATED_MARK = 'data-loco-translated';

/** Elements whose relative `src`/`href` points at a file the page loads (kept on the original path). */
const RESOURCES = 'img[src], script[src], source[src], video[src], audio[src], iframe[src], link[href]';

/**
 * An origin page as a search engine should see its language version: translated by the page client's own
 * code, `<html lang>`, the canonical link and `hreflang` alternates of every language, links within the
 * site kept in the language, and a mark telling the page client that the page is already translated.
 */
export function renderLanguagePage(input: LanguagePageInput): string {
  const { document } = parseHTML(input.html);
  const site = new SiteUrls(input.settings);
  const written = document.documentElement.getAttribute('lang');
  const original = site.original(input.url);

  input.renderer.translateDocument(document, {
    config: input.settings,
    language: input.language,
    translations: input.translations,
    register: input.register,
  });
  document.documentElement.setAttribute('data-loco-rendered', input.language);
  if (written) document.documentElement.setAttribute('data-loco-original-lang', written);
  // The page client's marks are for its own later passes; search engines need none of them.
  for (const element of document.querySelectorAll(`[${TRANSLATED_MARK}]`))
    element.removeAttribute(TRANSLATED_MARK);

  const head = document.head;
  const canonical = head.querySelector('link[rel~="canonical"][href]');
  const canonicalUrl = canonical ? new URL(canonical.getAttribute('href')!, original) : original;
  for (const link of head.querySelectorAll('link[rel~="canonical"], link[rel~="alternate"][hreflang]'))
    link.remove();
  const addLink = (attributes: Record<string, string>) => {
    const link = document.createElement('link');
    for (const [name, value] of Object.entries(attributes)) link.setAttribute(name, value);
    head.appendChild(link);
  };
  addLink({
    rel: 'canonical',
    href: site.isInternal(canonicalUrl) ? site.inLanguage(canonicalUrl, input.language) : canonicalUrl.href,
  });
  for (const alternate of site.alternates(original, written)) addLink({ rel: 'alternate', ...alternate });

  for (const anchor of document.querySelectorAll('a[href], area[href]')) {
    if (anchor.hasAttribute('hreflang') || anchor.closest('[data-loco-ignore="true"]')) continue;
    const href = anchor.getAttribute('href')!;
    const target = site.resolve(href, input.url);
    if (target && site.isPage(target))
      anchor.setAttribute('href', site.inLanguage(target, input.language, href));
  }
  // The page now lives one folder deeper (/fr/…): relative files keep pointing at the original ones.
  for (const element of document.querySelectorAll(RESOURCES)) {
    const name = element.hasAttribute('src') ? 'src' : 'href';
    const value = element.getAttribute(name)!;
    if (isRelativePath(value)) {
      const target = new URL(value, input.url);
      element.setAttribute(name, target.pathname + target.search + target.hash);
    }
  }
  return document.toString();
}

/** `img/logo.png`, `../a.css`: neither absolute, nor rooted, nor a fragment or a data URL. */
const isRelativePath = (value: string) => !!value && !/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(value.trim());
