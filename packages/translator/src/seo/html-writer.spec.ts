import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { HOSTILE_STRINGS } from '@app/server-kit/testing/hostile-html';
import { writeHtml } from './html-writer.ts';

const PAGE =
  '<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><main></main>' +
  '<p id="after">after</p></body></html>';

/** A page with `element` (holding `text`) first in <main>, written and parsed again. */
function roundTrip(element: string, text: string) {
  const { document } = parseHTML(PAGE);
  const made = document.createElement(element);
  made.textContent = text;
  document.querySelector('main')!.appendChild(made);
  const html = writeHtml(document as never);
  return { html, document: parseHTML(html).document };
}

/** What a parser reads in the written page that the page did not hold. */
function problems(document: ReturnType<typeof parseHTML>['document'], element: string): string[] {
  const found: string[] = [];
  const main = document.querySelector('main');
  const names = [...(main?.querySelectorAll('*') ?? [])].map((child) => child.localName);
  if (names.join() !== element) found.push(`main holds ${names.join()}`);
  if (document.querySelector('main + #after')?.textContent !== 'after') found.push('the page ends early');
  for (const child of document.querySelectorAll('*'))
    for (const { name } of child.attributes) if (/^on/i.test(name)) found.push(`${child.localName} ${name}`);
  if (document.querySelectorAll('script').length > (element === 'script' ? 1 : 0)) found.push('a script');
  return found;
}

describe('the HTML writer', () => {
  const elements = ['title', 'textarea', 'script', 'style', 'noscript', 'iframe', 'xmp', 'noembed'];
  const last = ['noframes', 'plaintext'];

  it('never lets a hostile text end a raw-text or escapable raw-text element early', () => {
    const found: string[] = [];
    for (const element of [...elements, ...last])
      for (const [index, text] of HOSTILE_STRINGS.entries())
        for (const problem of problems(roundTrip(element, text).document, element))
          found.push(`${element} ${index}: ${problem}`);
    expect(found).toEqual([]);
  }, 30_000);

  it('writes the text of ordinary and escapable elements back as the same text', () => {
    const found: string[] = [];
    for (const element of ['p', 'title', 'b', 'noembed', 'noframes', 'iframe'])
      for (const [index, text] of HOSTILE_STRINGS.entries()) {
        const read = roundTrip(element, text).document.querySelector(`main > ${element}`)?.textContent;
        if (read !== text) found.push(`${element} ${index}: ${read}`);
      }
    expect(found).toEqual([]);
  }, 30_000);

  it('keeps a script’s and a style’s bytes when they are safe, and writes their closing as <\\/', () => {
    const code = 'if (a < b && c > d) { x = "<b>&amp;"; }';
    expect(roundTrip('script', code).html).toContain(`<script>${code}</script>`);
    expect(roundTrip('style', 'a > b { content: "&"; }').html).toContain(
      '<style>a > b { content: "&"; }</style>',
    );
    expect(roundTrip('script', 'x = "</script><b>";').html).toContain(
      '<script>x = "<\\/script><b>";</script>',
    );
    // `<!--<script` never closed: the end tag would not end the script, the page would become its code.
    expect(roundTrip('script', 'x = "<!--<script>";').html).toContain(
      '<script>x = "<!--\\u003Cscript>";</script>',
    );
    expect(roundTrip('script', '<!-- <script> --> ok').html).toContain(
      '<script><!-- <script> --> ok</script>',
    );
  });

  it('writes every attribute double-quoted and escaped, and reads back the same value', () => {
    const found: string[] = [];
    const names = [
      'alt',
      'title',
      'placeholder',
      'aria-label',
      'value',
      'content',
      'href',
      'hreflang',
      'lang',
    ];
    for (const [index, text] of HOSTILE_STRINGS.entries()) {
      const { document } = parseHTML(PAGE);
      const input = document.createElement('input');
      for (const name of names) input.setAttribute(name, text);
      document.querySelector('main')!.appendChild(input);
      const written = writeHtml(document as never);
      const read = parseHTML(written).document;
      for (const problem of problems(read, 'input')) found.push(`${index}: ${problem}`);
      for (const name of names)
        if (read.querySelector('main > input')?.getAttribute(name) !== text) found.push(`${index}: ${name}`);
    }
    expect(found).toEqual([]);
  });

  it('escapes all text inside svg and math, where browsers read markup', () => {
    const { document } = parseHTML('<!DOCTYPE html><html><body><svg><style></style></svg></body></html>');
    document.querySelector('style')!.textContent = '<img src=x onerror=alert(1)>';
    expect(writeHtml(document as never)).toContain(
      '<svg><style>&lt;img src=x onerror=alert(1)&gt;</style></svg>',
    );
  });

  it('never lets a comment end early, and keeps the doctype', () => {
    const { document } = parseHTML(PAGE);
    document.querySelector('main')!.appendChild(document.createComment('--><img src=x onerror=alert(1)>'));
    const html = writeHtml(document as never);
    expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(parseHTML(html).document.querySelectorAll('img')).toHaveLength(0);
  });
});
