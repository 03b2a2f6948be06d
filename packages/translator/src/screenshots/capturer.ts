import { accessSync, constants } from 'node:fs';
import type { Browser, BrowserType, Page } from 'playwright-core';
import { CHROMIUM_ARGS, HostAllowlist } from '@app/server-kit';
import type { ScreenshotConfig } from './screenshots-config.ts';
import { PageGuard } from './page-guard.ts';
import { clipAround, LOCATE_SCRIPT, type LocatedBox } from './locate-script.ts';
import type { ShotOutcome } from './screenshots-repository.ts';

const VIEWPORT = { width: 1280, height: 800 };
/** The region photographed around a phrase, and the smaller one tried when that image is too large. */
const CLIP = { width: 800, height: 400 };
const SMALL_CLIP = { width: 480, height: 240 };
/** Marks the outlined element, so the next phrase on the page restores it first. */
const MARKER = 'data-translator-screenshot';

/** Whether capture can run here, and why not. */
export interface CaptureAvailability {
  available: boolean;
  reason?: string | undefined;
}

/** The phrases to photograph on one page. */
export interface PageVisit {
  url: string;
  phrases: { phraseId: number; key: string }[];
}

type Chromium = BrowserType;

/**
 * Headless Chromium (Debian's, through playwright-core) rendering the pages phrases were seen on: one
 * browser per run, one page at a time, every request the page makes guarded (PageGuard), each step
 * bounded by `pageTimeoutMs`.
 */
export class ChromiumCapturer {
  private readonly allowlist: HostAllowlist;

  constructor(private readonly config: ScreenshotConfig) {
    this.allowlist = new HostAllowlist(config.allowlist);
  }

  /** Whether the Chromium binary and playwright-core are there. */
  async availability(): Promise<CaptureAvailability> {
    try {
      accessSync(this.config.chromiumPath, constants.X_OK);
    } catch {
      return {
        available: false,
        reason: `No Chromium at ${this.config.chromiumPath}: install it (Debian: apt-get install chromium) or set TRANSLATOR_CHROMIUM_PATH.`,
      };
    }
    if (!(await loadChromium()))
      return { available: false, reason: 'The playwright-core package is not installed.' };
    return { available: true };
  }

  /** Starts a browser, hands `work` a function that photographs one page's phrases, and closes it. */
  async session<T>(
    work: (visit: (page: PageVisit) => Promise<Map<number, ShotOutcome>>) => Promise<T>,
  ): Promise<T> {
    const chromium = await loadChromium();
    if (!chromium) throw new Error('The playwright-core package is not installed.');
    const browser = await chromium.launch({
      headless: true,
      executablePath: this.config.chromiumPath,
      // Chromium's sandbox cannot start as root; as any other user it stays on.
      args: process.getuid?.() === 0 ? ['--no-sandbox', ...CHROMIUM_ARGS] : CHROMIUM_ARGS,
      timeout: 30_000,
    });
    try {
      return await work((visit) => this.visit(browser, visit));
    } finally {
      await browser.close().catch(() => {});
    }
  }

  private async visit(browser: Browser, visit: PageVisit): Promise<Map<number, ShotOutcome>> {
    const outcomes = new Map<number, ShotOutcome>();
    const failAll = (error: string) => {
      for (const phrase of visit.phrases) outcomes.set(phrase.phraseId, { error });
      return outcomes;
    };
    const guard = new PageGuard(this.allowlist);
    const refused = await guard.refusal(visit.url);
    if (refused) return failAll(`The page's address is refused: ${refused}.`);

    const context = await browser.newContext({
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(this.config.pageTimeoutMs);
      await page.route('**/*', async (route) => {
        const reason = await guard.refusal(route.request().url());
        if (reason) await route.abort('blockedbyclient').catch(() => {});
        else await route.continue().catch(() => {});
      });
      // Chromium follows redirects without asking the route again: a redirect to a refused address cannot
      // be stopped here, but a page that took one is not photographed (nothing of it reaches an image).
      const redirectsRefused: Promise<string | undefined>[] = [];
      page.on('request', (request) => {
        if (request.redirectedFrom()) redirectsRefused.push(guard.refusal(request.url()));
      });
      const tainted = async () => (await Promise.all(redirectsRefused)).find(Boolean);
      try {
        const response = await page.goto(visit.url, {
          timeout: this.config.pageTimeoutMs,
          waitUntil: 'load',
        });
        if (response && response.status() >= 400) return failAll(`The page answered ${response.status()}.`);
      } catch (error) {
        return failAll(`The page did not load: ${firstLine(error)}`);
      }
      // Pages that render their text with JavaScript get a moment more.
      await page.waitForLoadState('networkidle', { timeout: 2_000 }).catch(() => {});
      for (const phrase of visit.phrases) {
        const refusedRedirect = await tainted();
        if (refusedRedirect)
          return failAll(`The page was redirected to a refused address: ${refusedRedirect}.`);
        outcomes.set(phrase.phraseId, await this.shoot(page, phrase.key));
      }
      const refusedRedirect = await tainted();
      if (refusedRedirect)
        return failAll(`The page was redirected to a refused address: ${refusedRedirect}.`);
      return outcomes;
    } finally {
      await context.close().catch(() => {});
    }
  }

  /** Outlines the element showing `key` and photographs the region around it. */
  private async shoot(page: Page, key: string): Promise<ShotOutcome> {
    try {
      const box = (await page.evaluate(
        `${LOCATE_SCRIPT}(${JSON.stringify({ key, marker: MARKER })})`,
      )) as LocatedBox | null;
      if (!box) return { error: 'The page does not show this text.' };
      for (const size of [CLIP, SMALL_CLIP]) {
        const clip = clipAround(box, size);
        const png = await page.screenshot({ clip, type: 'png', animations: 'disabled', caret: 'hide' });
        if (png.length <= this.config.maxBytes) return { png, width: clip.width, height: clip.height };
      }
      return { error: 'The screenshot is larger than the limit even for a small region.' };
    } catch (error) {
      return { error: `The screenshot failed: ${firstLine(error)}` };
    }
  }
}

const firstLine = (error: unknown) =>
  String((error as Error)?.message ?? error)
    .split('\n')[0]!
    .slice(0, 300);

let loaded: Promise<Chromium | undefined> | undefined;

/** playwright-core's Chromium driver, loaded on first use (undefined when the package is missing). */
function loadChromium(): Promise<Chromium | undefined> {
  loaded ??= import('playwright-core').then(
    (module) => module.chromium,
    () => undefined,
  );
  return loaded;
}
