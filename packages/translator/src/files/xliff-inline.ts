import { SLOT_TOKEN } from '@app/slots';
import { FileError } from './exchange.ts';
import { escapeXml, NOT_XML, type XmlElement } from './xml.ts';

export type XliffVersion = '1.2' | '2.0';

const PIECES = new RegExp(`${SLOT_TOKEN.source}|${NOT_XML.source}`, 'gu');
/** A placeholder id we write: the slot's type and index (`number-0`). */
const SLOT_ID = /^([a-z][a-z0-9_]{0,31})-(\d{1,3})$/;
/** XLIFF 1.2 has no element for a character XML cannot carry: an `<x>` whose ctype names it. */
const CHAR_CTYPE = /^x-cp-([0-9a-f]{1,6})$/i;

/**
 * A text as XLIFF inline content: slot tokens become placeholders (`<x/>` in 1.2, `<ph/>` in 2.0)
 * that CAT tools protect, with the token as their text equivalent; characters XML cannot carry become
 * `<cp/>` (2.0) or a marked `<x/>` (1.2).
 */
export function inlineXml(text: string, version: XliffVersion): string {
  let out = '';
  let last = 0;
  let chars = 0;
  for (const match of text.matchAll(PIECES)) {
    out += escapeXml(text.slice(last, match.index));
    last = match.index + match[0].length;
    const token = escapeXml(match[0], true);
    if (match[1] !== undefined) {
      const id = `${match[1]}-${match[2]}`;
      out +=
        version === '1.2'
          ? `<x id="${id}" equiv-text="${token}"/>`
          : `<ph id="${id}" equiv="${token}" disp="${token}"/>`;
    } else {
      const hex = match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      out += version === '1.2' ? `<x id="cp-${chars++}" ctype="x-cp-${hex}"/>` : `<cp hex="${hex}"/>`;
    }
  }
  return out + escapeXml(text.slice(last));
}

/** The text of XLIFF inline content, placeholders back as slot tokens; markup we did not write is refused. */
export function inlineText(element: XmlElement, version: XliffVersion): string {
  return element.children
    .map((child) => {
      if (typeof child === 'string') return child;
      const { name, attributes } = child;
      const placeholder = version === '1.2' ? name === 'x' || name === 'ph' : name === 'ph';
      const char =
        version === '2.0' && name === 'cp'
          ? /^[0-9a-f]{1,6}$/i.exec(attributes.hex ?? '')?.[0]
          : placeholder && CHAR_CTYPE.exec(attributes.ctype ?? '')?.[1];
      if (char) return String.fromCodePoint(Number.parseInt(char, 16));
      const slot = placeholder && SLOT_ID.exec(attributes.id ?? '');
      if (slot) return `{{${slot[1]}:${slot[2]}}}`;
      // Segmentation and term marks, and paired codes a tool wrapped around text: their text counts.
      if (['mrk', 'g', 'pc'].includes(name)) return inlineText(child, version);
      throw new FileError(
        `line ${child.line}: <${name}${attributes.id ? ` id="${attributes.id}"` : ''}> is not a placeholder this project wrote`,
      );
    })
    .join('');
}
