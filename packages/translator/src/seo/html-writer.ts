/**
 * The one HTML writer of everything the translator serves as HTML (SEO mode's language pages, prerendered
 * or not): a parsed document back to text, every piece escaped for the context a browser reads it in.
 * linkedom's own serialiser writes `<title>` and `<textarea>` text as it is, so a translation (or an
 * origin's escaped search term, once parsed) holding `</title><script>` would become markup.
 *
 * - text: `&`, `<` and `>` escaped — title included, and iframe, noembed, noframes and plaintext too:
 *   browsers read those four as raw text, but htmlparser2 (linkedom's parser, and crawlers built on it)
 *   as markup, and escaped text is text for both (their content is never shown, or obsolete);
 * - script, style, xmp and textarea: their text as the parser kept it — the origin's own bytes (for
 *   textarea htmlparser2 keeps the source, entities undecoded, so escaping would show `&amp;lt;`) —
 *   except that their own closing sequence `</tag` becomes `<\/tag` in script and style (in a string
 *   there, the same text) and `&lt;/tag` in the others, and a script that would swallow the rest of the
 *   page (`<!--<script`, never closed) has its `<script` written `\u003Cscript`;
 * - no element holds its own closing sequence (a noscript's markup, say, read as raw text where
 *   scripts run);
 * - attribute values: double-quoted, `&`, `"`, `<` and `>` escaped (so no `</noscript` hides in one);
 * - inside `<svg>` and `<math>` nothing is raw text (browsers parse it as markup): all text is escaped;
 * - comments cannot end early (`-->`, `--!>`); names that are not names are dropped.
 */

/** The DOM a parsed document offers (linkedom's, or a browser's). */
interface WrittenNode {
  nodeType: number;
  childNodes: ArrayLike<WrittenNode>;
  nodeValue?: string | null;
  localName?: string;
  name?: string;
  attributes?: ArrayLike<{ name: string; value: string }>;
}

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const COMMENT = 8;
const DOCUMENT_TYPE = 10;

const VOID = new Set(
  'area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr'.split(
    ' ',
  ),
);
/** Written as they are (but for their closing sequence). */
const LITERAL = new Set(['script', 'style', 'xmp', 'textarea']);
/** Where `</` stays what it says as `<\/` (a string in code); elsewhere it becomes `&lt;/`. */
const CODE = new Set(['script', 'style']);
/** Written escaped, and never holding their own closing sequence. */
const GUARDED = new Set(['title', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);
const FOREIGN = new Set(['svg', 'math']);
const NEWLINE_DROPPED = new Set(['pre', 'textarea', 'listing']);
/** What the tokenizer allows in a tag or attribute name (nothing that ends the tag or the name). */
// eslint-disable-next-line no-control-regex -- NUL ends no name but is none either
const TAG_NAME = /^[a-z][^\s/>\u0000]*$/i;
// eslint-disable-next-line no-control-regex -- as above
const ATTRIBUTE_NAME = /^[^\s/>="'<\u0000]+$/;

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeText = (text: string) => text.replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]!);
const escapeAttribute = (text: string) => text.replace(/[&<>"]/g, (c) => TEXT_ESCAPES[c]!);

/** `</tag` followed by what ends a tag name: where a browser ends the raw text of `<tag>`. */
const closingOf = (tag: string) => new RegExp(`</(${tag})(?=[\\t\\n\\f\\r />]|$)`, 'gi');
const SCRIPT_START = /<(script)(?=[\t\n\f\r />])/gi;

/** The document (or element, or fragment) as HTML. */
export function writeHtml(node: WrittenNode): string {
  const out: string[] = [];
  writeChildren(node, false, out);
  return out.join('');
}

function writeChildren(node: WrittenNode, foreign: boolean, out: string[]) {
  const children = node.childNodes;
  for (let index = 0; index < children.length; index++) writeNode(children[index]!, foreign, out);
}

function writeNode(node: WrittenNode, foreign: boolean, out: string[]) {
  switch (node.nodeType) {
    case ELEMENT:
      writeElement(node, foreign, out);
      return;
    case TEXT:
    case CDATA:
      out.push(escapeText(node.nodeValue ?? ''));
      return;
    case COMMENT:
      out.push(`<!--${safeComment(node.nodeValue ?? '')}-->`);
      return;
    case DOCUMENT_TYPE:
      out.push(`<!DOCTYPE ${/^[a-z][a-z0-9-]*$/i.test(node.name ?? '') ? node.name : 'html'}>`);
      return;
    default:
      // Processing instructions are no HTML; documents and fragments hold their children.
      if (node.nodeType === 9 || node.nodeType === 11) writeChildren(node, foreign, out);
  }
}

function writeElement(element: WrittenNode, parentForeign: boolean, out: string[]) {
  const tag = (element.localName ?? '').toLowerCase();
  if (!TAG_NAME.test(tag)) return;
  const foreign = parentForeign || FOREIGN.has(tag);
  out.push(`<${tag}`);
  const attributes = element.attributes ?? [];
  for (let index = 0; index < attributes.length; index++) {
    const { name, value } = attributes[index]!;
    if (ATTRIBUTE_NAME.test(name)) out.push(` ${name}="${escapeAttribute(value)}"`);
  }
  out.push('>');
  if (VOID.has(tag)) return;
  // The parser drops a newline that opens these elements: one more keeps the text's own.
  const first = element.childNodes[0];
  if (NEWLINE_DROPPED.has(tag) && first?.nodeType === TEXT && first.nodeValue?.startsWith('\n'))
    out.push('\n');
  if (!foreign && LITERAL.has(tag)) out.push(literalText(element, tag));
  else if (!foreign && GUARDED.has(tag)) {
    const inner: string[] = [];
    writeChildren(element, false, inner);
    out.push(inner.join('').replace(closingOf(tag), '&lt;/$1'));
  } else writeChildren(element, foreign, out);
  out.push(`</${tag}>`);
}

/** A literal element's text as it is, with nothing inside that ends the element before its end tag. */
function literalText(element: WrittenNode, tag: string): string {
  const inner: string[] = [];
  const children = element.childNodes;
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!;
    if (child.nodeType === TEXT) inner.push(child.nodeValue ?? '');
    else writeNode(child, false, inner);
  }
  let text = inner.join('').replace(closingOf(tag), CODE.has(tag) ? '<\\/$1' : '&lt;/$1');
  if (tag === 'script' && swallowsTheRest(text)) text = text.replace(SCRIPT_START, '\\u003C$1');
  return text;
}

/**
 * Whether script text ends in the tokenizer's "double escaped" state (`<!--` then `<script`, no `-->`
 * since): there the end tag does not end the script, and the rest of the page would become its source.
 */
function swallowsTheRest(text: string): boolean {
  let state: 'data' | 'escaped' | 'double' = 'data';
  const marks = /<!--|-->|<script(?=[\t\n\f\r />])|<\/script(?=[\t\n\f\r />])/gi;
  for (const [mark] of text.matchAll(marks)) {
    const lower = mark.toLowerCase();
    if (lower === '-->') state = 'data';
    else if (lower === '<!--') state = state === 'data' ? 'escaped' : state;
    else if (lower === '<script') state = state === 'escaped' ? 'double' : state;
    else if (state === 'double') state = 'escaped';
  }
  return state === 'double';
}

/** Comment text that cannot end the comment before its `-->`. */
function safeComment(data: string): string {
  const text = data.replace(/--!?>/g, (end) => `${end.slice(0, -1)} >`);
  return /^-?>/.test(text) ? ` ${text}` : text;
}
