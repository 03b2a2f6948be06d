import type { Browser } from 'playwright-core';
import type { FastifyBaseLogger } from 'fastify';
import type { SeoConfig } from '../config.ts';
import { fail } from '../errors/catalogue.ts';
import { GuardedBrowser } from '../browser/guarded-browser.ts';
import type { OriginAnswer } from './origin-pages.ts';

/** Pages rendered at once (each is a browser tab running the site's scripts), and waiting beyond them. */
const AT_ONCE = 2;
const WAITING_AT_MOST = 20;
/** How long a page's scripts may keep fetching after its load before it is taken as it is. */
const SETTLE_MS = 3_000;

/**
 * The document as the browser shows it, open shadow roots included as declarative ones
 * (`<template shadowrootmode="open">`, what server-rendered web components send). The browser writes
 * raw-text elements' text as it is: a script's text that holds `</script` (a search term the app put
 * in a JSON block, say) would end the element when the HTML is parsed again, so, as the HTML writer
 * does (html-writer.ts), their own closing sequence is written `<\/tag` first.
 */
const SERIALIZE = `(() => {
  const roots = [];
  const collect = (root) => {
    for (const element of root.querySelectorAll('*')) if (element.shadowRoot) { roots.push(element.shadowRoot); collect(element.shadowRoot); }
  };
  collect(document);
  const raw = 'script, style, xmp, iframe, noembed, noframes, noscript, plaintext';
  for (const root of [document, ...roots]) for (const element of root.querySelectorAll(raw)) {
    const closing = new RegExp('</(' + element.localName + ')(?=[\\t\\n\\f\\r />]|$)', 'gi');
    const text = element.textContent;
    if (closing.test(text) && !element.children.length) element.textContent = text.replace(closing, '<\\\\/$1');
  }
  const html = document.documentElement;
  const attributes = [...html.attributes].map((a) => ' ' + a.name + '="' + a.value.replace(/&/g, '&amp;').replace(/"/g, '&quot;') + '"').join('');
  return '<!DOCTYPE html><html' + attributes + '>' + html.getHTML({ shadowRoots: roots }) + '</html>';
})()`;

/**
 * SEO mode for sites whose text their scripts render (React, Vue, web components): the origin's page
 * loaded in a GuardedBrowser, its scripts run, then taken as HTML. One browser for the process, started
 * on first use.
 */
export class Prerenderer {
  private readonly browser: GuardedBrowser;
  private running: Promise<Browser> | undefined;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    chromiumPath: string,
    private readonly config: SeoConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    this.browser = new GuardedBrowser(chromiumPath, config.allowlist);
  }

  async render(url: URL): Promise<OriginAnswer> {
    await this.turn();
    try {
      return await this.load(url);
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }

  private async load(url: URL): Promise<OriginAnswer> {
    const availability = await this.browser.availability();
    if (!availability.available) throw fail('browser_unavailable', availability.reason);
    const opened = await this.browser.open(await this.started(), this.config.originTimeoutMs);
    try {
      const refused = await opened.refusal(url.href);
      if (refused) return this.unavailable(url, `refused: ${refused}`);
      const response = await opened.page.goto(url.href, { waitUntil: 'load' }).catch((error: unknown) => {
        this.log.warn({ url: url.href, reason: String(error) }, 'seo: the page did not load in the browser');
        return null;
      });
      if (!response || response.status() >= 500)
        return this.unavailable(url, response ? `answered ${response.status()}` : 'did not load');
      const final = new URL(opened.page.url());
      if (final.href !== url.href) return { kind: 'redirect', status: 302, location: final };
      if (!/^\s*(text\/html|application\/xhtml\+xml)/i.test(response.headers()['content-type'] ?? ''))
        return { kind: 'other' };
      await opened.page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => {});
      const html = (await opened.page.evaluate(SERIALIZE)) as string;
      const redirected = await opened.tainted();
      if (redirected) return this.unavailable(url, `redirected to a refused address: ${redirected}`);
      return { kind: 'page', status: response.status(), html, url };
    } finally {
      await opened.close();
    }
  }

  private unavailable(url: URL, reason: string): never {
    this.log.warn({ url: url.href, reason }, 'seo: the origin gave no page');
    throw fail('origin_unavailable');
  }

  private started(): Promise<Browser> {
    this.running ??= this.browser.launch().then((browser) => {
      browser.on('disconnected', () => (this.running = undefined));
      return browser;
    });
    return this.running;
  }

  private turn(): Promise<void> {
    if (this.active < AT_ONCE) {
      this.active += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= WAITING_AT_MOST) throw fail('seo_busy');
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.active += 1;
        resolve();
      }),
    );
  }

  async close() {
    const running = this.running;
    this.running = undefined;
    if (running) await (await running.catch(() => undefined))?.close().catch(() => {});
  }
}
