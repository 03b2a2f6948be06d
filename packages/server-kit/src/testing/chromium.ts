// Browser-test support shared by the web packages: Debian's Chromium driven by playwright-core.
// A subpath of its own (`@app/server-kit/testing/chromium`), so the other test helpers do not load playwright.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../chromium-args.ts';

/** Debian's Chromium (or CHROMIUM_PATH); playwright gives every launch a fresh temporary user-data-dir. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    headless: true,
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', ...CHROMIUM_ARGS],
  });
}

/** How long a browser may take to close before it is left to the test process's exit. */
const CLOSE_LIMIT_MS = 20_000;

/**
 * Closes the browser, waiting at most 20 s: a Chromium that hangs on its way out must not fail a file
 * whose tests passed (it goes with the test process, and this says so on standard error).
 */
export async function closeChromium(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_LIMIT_MS)));
  const closed = await Promise.race([browser.close().then(() => true), limit]);
  clearTimeout(timer);
  if (!closed)
    console.error(
      `[chromium] did not close within ${CLOSE_LIMIT_MS / 1000} s; left to the test process's exit`,
    );
}

export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };

/** A fresh context whose relative URLs go to `baseURL`, in English and UTC, with 15 s waits. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

/** Page errors, and console errors unless `consoleErrors` is false, collected so a test can assert there were none. */
export function collectErrors(page: Page, { consoleErrors = true } = {}): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  if (consoleErrors)
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
  return errors;
}

/** test-artifacts/ at the top of the repository (ignored by git). */
const artifactsRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../test-artifacts');

/**
 * Screenshots are for people to look at: none where CI is set (its machine is thrown away after the run,
 * and each full-page capture takes a third of a second of it), unless TEST_SCREENSHOTS=1;
 * TEST_SCREENSHOTS=0 turns them off anywhere.
 */
const takeScreenshots = process.env.TEST_SCREENSHOTS ? process.env.TEST_SCREENSHOTS !== '0' : !process.env.CI;

/** A `screenshot(page, name)` that saves the full page to test-artifacts/<folder>/<name>.png. */
export function screenshotsIn(folder: string) {
  const dir = join(artifactsRoot, folder);
  return async (page: Page, name: string): Promise<void> => {
    if (!takeScreenshots) return;
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  };
}
