import { parseHTML } from 'linkedom';
import type { DocumentRenderer } from '@app/page-client';
import type { StoredSettings } from '../projects/settings.ts';
import { SiteUrls } from './site-urls.ts';
import { writeHtml } from './html-writer.ts';

export interface LanguagePageInput {
  /** The origin's HTML and the address it was fetched from. */
  html: string;
  url: URL;
  language: string;
  settings: StoredSettings;
  translations: { key: string; context: string; value: string }[];
  renderer: DocumentRenderer;
  /** The page was rendered in a browser first (its scripts ran): the page client lets its app route. */
  prerendered: boolean;
  register(key: string, context: string, slots?: string[]): void;
}

const TRANSLATED_MARK = 'data-loco-translated';

type LinkedDocument = ReturnType<typeof parseHTML>['document'];
type LinkedElement = ReturnType<LinkedDocument['createElement']>;
interface Queryable {
  querySelectorAll(selector: string): Iterable<LinkedElement>;
}

/** Elements whose relative `src`/`href` points at a file the page loads (kept on the original path). */
const RESOURCES = 'img[src], script[src], source[src], video[src], audio[src], iframe[src], link[href]';

/**
 * An origin page as a search engine should see its language version: translated by the page client's own
 * code, `<html lang>`, the canonical link and `hreflang` alternates of every language, links within the
 * site kept in the language, and a mark telling the page client that the page is already translated.
 */
export function renderLanguagePage(input: LanguagePageInput): string {
  // linkedom needs a whole document: a page that is only a fragment is put in one.
  const html = /<html[\s>]/i.test(input.html)
    ? input.html
    : `<!DOCTYPE html><html><body>${input.html}</body></html>`;
  const { document } = parseHTML(html);
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
  if (input.prerendered) document.documentElement.setAttribute('data-loco-prerendered', '');
  const all = (selector: string) => elementsOf(document, selector);
  // The page client's marks are for its own later passes; search engines need none of them.
  for (const element of all(`[${TRANSLATED_MARK}]`)) element.removeAttribute(TRANSLATED_MARK);
  // A page rendered in a browser may hold the page client's switcher: the visitor's client makes its own.
  for (const element of all('loco-language-switcher')) element.remove();

  const head = document.head;
  const canonical = head.querySelector('link[rel~="canonical"][href]');
  // The origin's canonical page on this site (else this page), in the language: a language version is its
  // own canonical page, never the original's.
  const canonicalUrl = (canonical && site.resolve(canonical.getAttribute('href')!, original)) || original;
  for (const link of head.querySelectorAll('link[rel~="canonical"], link[rel~="alternate"][hreflang]'))
    link.remove();
  const addLink = (attributes: Record<string, string>) => {
    const link = document.createElement('link');
    for (const [name, value] of Object.entries(attributes)) link.setAttribute(name, value);
    head.appendChild(link);
  };
  addLink({ rel: 'canonical', href: site.inLanguage(canonicalUrl, input.language) });
  for (const alternate of site.alternates(original, written)) addLink({ rel: 'alternate', ...alternate });

  for (const anchor of all('a[href], area[href]')) {
    if (anchor.hasAttribute('hreflang') || anchor.closest('[data-loco-ignore="true"]')) continue;
    const href = anchor.getAttribute('href')!;
    const target = site.resolve(href, input.url);
    if (target && site.isPage(target))
      anchor.setAttribute('href', site.inLanguage(target, input.language, href));
  }
  // The page now lives one folder deeper (/fr/…): relative files keep pointing at the original ones.
  for (const element of all(RESOURCES)) {
    const name = element.hasAttribute('src') ? 'src' : 'href';
    const value = element.getAttribute(name)!;
    if (isRelativePath(value)) {
      const target = new URL(value, input.url);
      element.setAttribute(name, target.pathname + target.search + target.hash);
    }
  }
  return writeHtml(document);
}

/**
 * The elements matching `selector` in the document and in its server-rendered shadow roots
 * (`<template shadowrootmode>`, which a prerendered page of web components holds).
 */
function elementsOf(document: LinkedDocument, selector: string): LinkedElement[] {
  const found: LinkedElement[] = [];
  const roots: Queryable[] = [document];
  for (let root = roots.pop(); root; root = roots.pop()) {
    found.push(...root.querySelectorAll(selector));
    roots.push(...root.querySelectorAll('template[shadowrootmode]'));
  }
  return found;
}

/** `img/logo.png`, `../a.css`: neither absolute, nor rooted, nor a fragment or a data URL. */
const isRelativePath = (value: string) => !!value && !/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(value.trim());
