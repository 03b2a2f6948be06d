import { parseHTML } from 'linkedom';

/** Elements the SEO renderer adds or removes on purpose (its own links, the page client's switcher). */
const RENDERER_ELEMENTS = new Set(['link', 'loco-language-switcher']);
/** Attributes the renderer sets on purpose. */
const RENDERER_ATTRIBUTES = /^(lang|data-loco-[a-z-]+)$/;
// eslint-disable-next-line no-control-regex -- browsers skip leading control characters of a URL
const SCRIPT_URL = /^[\s\u0000-\u001f]*(j\s*a\s*v\s*a\s*s\s*c\s*r\s*i\s*p\s*t|vbscript|data)\s*:/i;
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'data', 'srcdoc', 'xlink:href']);

type Doc = ReturnType<typeof parseHTML>['document'];

/** Every element as `tag[attribute names]`, in document order (template contents included). */
function shapeOf(document: Doc): string[] {
  return [...document.querySelectorAll('*')]
    .filter((element) => !RENDERER_ELEMENTS.has(element.localName))
    .map((element) => {
      const names = [...element.attributes]
        .map((attribute) => attribute.name)
        .filter((name) => !RENDERER_ATTRIBUTES.test(name))
        .sort();
      return `${element.localName}[${names.join(',')}]`;
    });
}

/** Script-running markup in a page: script elements, on* attributes, script URLs. */
export function scriptsIn(html: string): string[] {
  const { document } = parseHTML(html);
  const found: string[] = [];
  for (const element of document.querySelectorAll('*')) {
    if (element.localName === 'script') found.push(`<script>${element.textContent?.slice(0, 40)}`);
    for (const { name, value } of element.attributes) {
      if (/^on/i.test(name)) found.push(`${element.localName} ${name}`);
      if (URL_ATTRIBUTES.has(name.toLowerCase()) && SCRIPT_URL.test(value))
        found.push(`${element.localName} ${name}=${value.slice(0, 40)}`);
    }
  }
  return found;
}

/**
 * What the served page has that the origin's did not, read by an HTML parser: an element or attribute
 * the origin never wrote (the renderer's own links and marks aside), in document order.
 */
export function introducedMarkup(origin: string, served: string): string[] {
  const before = shapeOf(parseHTML(origin).document);
  const after = shapeOf(parseHTML(served).document);
  if (before.join('\n') === after.join('\n')) return [];
  const extra = [...after];
  for (const shape of before) {
    const at = extra.indexOf(shape);
    if (at >= 0) extra.splice(at, 1);
  }
  return extra.length ? extra : [`the elements differ: ${after.join(' ')}`];
}

/** The parsed page: text of the first match, an attribute of the first match. */
export function readPage(html: string) {
  const { document } = parseHTML(html);
  return {
    document,
    text: (selector: string) => document.querySelector(selector)?.textContent ?? undefined,
    attr: (selector: string, name: string) =>
      document.querySelector(selector)?.getAttribute(name) ?? undefined,
  };
}
