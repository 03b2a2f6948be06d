/** Elements whose text is never a phrase: code, scripts, graphics, user input. */
export const SKIPPED_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'CODE',
  'PRE',
  'SVG',
  'KBD',
  'TEXTAREA',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'SAMP',
  'VAR',
]);

/** Attributes whose values are shown to people and so are translated. */
export const TRANSLATED_ATTRIBUTES = ['placeholder', 'title', 'alt', 'aria-label'] as const;

/** `<meta>` elements whose `content` people read: in search results and link previews. */
const READ_META = /^(description|og:title|og:description|twitter:title|twitter:description)$/i;

/** The attributes of an element that are translated: the shown ones, and a read meta's `content`. */
export function translatedAttributesOf(element: Element): readonly string[] {
  if (element.tagName !== 'META') return TRANSLATED_ATTRIBUTES;
  const name = element.getAttribute('name') ?? element.getAttribute('property') ?? '';
  return READ_META.test(name) ? ['content'] : [];
}

const PERSONAL = [
  /[^\s@]+@[^\s@]+\.[a-z]{2,}/i, // e-mail address
  /\b(?:https?:\/\/|www\.)\S+/i, // URL
  /\d{6,}/, // long digit run (ids, card or account numbers)
  /\+?\d[\d\s().-]{7,}\d/, // phone-like
  /\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b/, // date-like
];

/** True when the text looks like personal data, which must never leave the page. */
export const looksPersonal = (text: string) =>
  /[\d@]|www\.|:\/\//.test(text) && PERSONAL.some((pattern) => pattern.test(text));

export const hasLetters = (text: string) => /[a-z]/i.test(text) || /\p{L}/u.test(text);

/** HTML shows runs of white space as one space: phrases are keyed that way. */
export const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The leading and trailing white space of a text, kept around its translation. */
export function edges(text: string): [string, string] {
  const trimmed = text.trim();
  if (trimmed.length === text.length) return ['', ''];
  const start = text.indexOf(trimmed);
  return [text.slice(0, start), text.slice(start + trimmed.length)];
}
