import type { Browser, Page } from 'playwright-core';
import { GuardedBrowser, type BrowserAvailability } from '../browser/guarded-browser.ts';
import type { ScreenshotConfig } from './screenshots-config.ts';
import { clipAround, LOCATE_SCRIPT, type LocatedBox } from './locate-script.ts';
import type { ShotOutcome } from './screenshots-repository.ts';

/** The region photographed around a phrase, and the smaller one tried when that image is too large. */
const CLIP = { width: 800, height: 400 };
const SMALL_CLIP = { width: 480, height: 240 };
/** Marks the outlined element, so the next phrase on the page restores it first. */
const MARKER = 'data-translator-screenshot';

/** The phrases to photograph on one page. */
export interface PageVisit {
  url: string;
  phrases: { phraseId: number; key: string }[];
}

/**
 * Photographs the pages phrases were seen on in a GuardedBrowser: one browser per run, one page at a
 * time, each step bounded by `pageTimeoutMs`.
 */
export class ChromiumCapturer {
  private readonly browser: GuardedBrowser;

  constructor(private readonly config: ScreenshotConfig) {
    this.browser = new GuardedBrowser(config.chromiumPath, config.allowlist);
  }

  /** Whether the Chromium binary and playwright-core are there. */
  availability(): Promise<BrowserAvailability> {
    return this.browser.availability();
  }

  /** Starts a browser, hands `work` a function that photographs one page's phrases, and closes it. */
  async session<T>(
    work: (visit: (page: PageVisit) => Promise<Map<number, ShotOutcome>>) => Promise<T>,
  ): Promise<T> {
    const browser = await this.browser.launch();
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
    const opened = await this.browser.open(browser, this.config.pageTimeoutMs);
    try {
      const refused = await opened.refusal(visit.url);
      if (refused) return failAll(`The page's address is refused: ${refused}.`);
      const { page, tainted } = opened;
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
      // A page redirected to a refused address is not photographed: nothing of it reaches an image.
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
      await opened.close();
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
