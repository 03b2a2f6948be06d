import { SaxesParser } from 'saxes';
import { FileError } from './exchange.ts';

export interface XmlElement {
  /** Local name (without prefix). */
  name: string;
  namespace: string;
  /** Attributes by local name; `xml:lang` and `xml:space` under their qualified names. */
  attributes: Record<string, string>;
  children: XmlNode[];
  line: number;
}
export type XmlNode = XmlElement | string;

/** Reads a whole XML document into a tree. DOCTYPEs are refused: no entity of ours to expand. */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('doctype', () => {
    throw new FileError(`line ${parser.line}: a DOCTYPE is not allowed in a translation file`);
  });
  parser.on('opentag', (tag) => {
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) {
      const qualified = attribute.prefix === 'xml' ? `xml:${attribute.local}` : attribute.local;
      if (attribute.prefix !== 'xmlns' && attribute.name !== 'xmlns') attributes[qualified] = attribute.value;
    }
    const element: XmlElement = {
      name: tag.local,
      namespace: tag.uri,
      attributes,
      children: [],
      line: parser.line,
    };
    stack.at(-1)?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on('closetag', () => void stack.pop());
  const addText = (content: string) => void stack.at(-1)?.children.push(content);
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('error', (error) => {
    throw new FileError(error.message);
  });
  parser.write(text).close();
  if (!root) throw new FileError('the file holds no XML element');
  return root;
}

export const elements = (parent: XmlElement, name?: string) =>
  parent.children.filter(
    (child): child is XmlElement => typeof child !== 'string' && (name === undefined || child.name === name),
  );

export const firstElement = (parent: XmlElement, name: string) => elements(parent, name)[0];

/** Characters XML 1.0 cannot carry at all (controls, lone surrogates, U+FFFE/FFFF). */
export const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/**
 * Text escaped for element content or an attribute value. CR and (in attributes) tab and line feed go
 * as character references, which parsers keep, where they would normalise the literal characters.
 */
export function escapeXml(text: string, attribute = false): string {
  const escaped = text.replace(
    /[&<>\r]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' })[c]!,
  );
  return attribute
    ? escaped.replace(/["\n\t]/g, (c) => ({ '"': '&quot;', '\n': '&#xA;', '\t': '&#x9;' })[c]!)
    : escaped;
}
