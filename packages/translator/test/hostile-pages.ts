import { HOSTILE_STRINGS } from '@app/server-kit/testing/hostile-html';

/** Letters only: numbers in a phrase become slots. */
const letters = (index: number) => index.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)]!);

/** The phrase whose translation is the index-th hostile string (stored run). */
export const hostileKey = (index: number) => `Hostile phrase ${letters(index)}`;

/** Every hostile string as the French translation of its phrase. */
export const HOSTILE_TRANSLATIONS: Record<string, string> = Object.fromEntries(
  HOSTILE_STRINGS.map((value, index) => [hostileKey(index), value]),
);

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
/** JSON in a script, as careful sites write it (`<` never appears). */
const scriptJson = (text: string) => JSON.stringify(text).replace(/</g, '\\u003c');
/** A CSS string: every character that is not a letter or digit as a hexadecimal escape. */
const cssString = (text: string) =>
  `"${[...text].map((c) => (/[a-z0-9 ]/i.test(c) ? c : `\\${c.codePointAt(0)!.toString(16)} `)).join('')}"`;

/**
 * The contexts a page writes a text into — every element and attribute the page client or the SEO
 * renderer touches, and every raw-text and escapable raw-text element — with `html` for the element
 * contexts, `attr` for the attributes, and the script and style forms.
 */
function contexts(text: { html: string; attr: string; script: string; css: string; url: string }) {
  const head =
    `<title>${text.html}</title><meta name="description" content="${text.attr}">` +
    `<meta property="og:title" content="${text.attr}"><link rel="canonical" href="/search?q=${text.url}">` +
    `<script>window.term = ${text.script};</script><style>.term::after { content: ${text.css}; }</style>`;
  const body =
    `<h1>${text.html}</h1><p title="${text.attr}">${text.html} <b>${text.html}</b></p>` +
    `<img src="logo.png" alt="${text.attr}"><input placeholder="${text.attr}" value="${text.attr}">` +
    `<button aria-label="${text.attr}" title="${text.attr}">${text.html}</button>` +
    `<textarea>${text.html}</textarea><a href="/search?q=${text.url}">${text.html}</a>` +
    `<noscript><p>${text.html}</p></noscript><iframe src="about:blank">${text.html}</iframe>` +
    `<xmp>${text.html}</xmp><noembed>${text.html}</noembed><noframes>${text.html}</noframes>` +
    `<svg><title>${text.html}</title><text>${text.html}</text></svg>` +
    `<plaintext>${text.html}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
}

/** The origin's page for a phrase of the stored run (`/stored?i=N`): the phrase in every context. */
export function storedPage(url: URL): string {
  const key = hostileKey(Number(url.searchParams.get('i')));
  return contexts({ html: key, attr: key, script: scriptJson(key), css: cssString(key), url: 'x' });
}

/**
 * A search page (`/search?q=`) that escapes the term correctly for each context, as a careful site
 * does: what the translator must not turn back into markup.
 */
export function searchPage(url: URL): string {
  const term = url.searchParams.get('q') ?? '';
  return contexts({
    html: escapeHtml(term),
    attr: escapeHtml(term),
    script: scriptJson(term),
    css: cssString(term),
    url: encodeURIComponent(term),
  });
}

/** Text contexts (selector) and attribute contexts (selector, attribute) a hostile text must round-trip in. */
export const TEXT_CONTEXTS = [
  'title',
  'h1',
  'p b',
  'button',
  'textarea',
  'noscript p',
  'iframe',
  'xmp',
  'noembed',
  'noframes',
  'svg title',
  'svg text',
  'plaintext',
];
export const ATTRIBUTE_CONTEXTS: [string, string][] = [
  ['meta[name=description]', 'content'],
  ['meta[property="og:title"]', 'content'],
  ['p', 'title'],
  ['img', 'alt'],
  ['input', 'placeholder'],
  ['input', 'value'],
  ['button', 'aria-label'],
  ['button', 'title'],
];
/** Contexts the stored run reaches: what the page client translates (not textarea, noscript, svg, value). */
export const TRANSLATED_TEXT = ['title', 'h1', 'p b', 'button'];
export const TRANSLATED_ATTRIBUTES = ATTRIBUTE_CONTEXTS.filter(([, name]) => name !== 'value');

export { HOSTILE_STRINGS };
