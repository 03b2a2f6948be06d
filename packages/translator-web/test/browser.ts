// Browser-test support: the dashboard built once per run, served by the real translator, driven by Chromium.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import {
  closeChromium,
  collectErrors,
  launchChromium,
  newPage,
  screenshotsIn,
} from '@app/server-kit/testing/chromium';
import { startHarness, type Harness } from '@app/translator/testing';
import { ensureViteBuild } from '@app/server-kit/testing/vite-build';

export {
  closeChromium,
  collectErrors,
  launchChromium,
  newPage,
  PHONE,
} from '@app/server-kit/testing/chromium';
export { serveSite } from '@app/page-client/testing';

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const distDir = join(packageDir, 'dist');

/** Builds the dashboard when dist/ is missing or older than its sources (a few seconds; skipped when fresh). */
export const ensureBuilt = (): Promise<void> => ensureViteBuild(packageDir, 'dashboard');

export const screenshot = screenshotsIn('translator-web');

/** Signs in with the project key through the form (a fresh browser's first screen) and waits for the review page. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Project API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
}

/** Where the dashboard keeps the key its sign-in form was given, for the tab (src/api.ts). */
const KEY_STORAGE = 'translator.apiKey';

/**
 * Gives the tab the project key before the dashboard first loads, as submitting the sign-in form does
 * (signIn tries the form itself): a page load less per test. Once per tab (the tab's name remembers it,
 * leaving the app's storage as the form would), so signing out stays so.
 */
export async function giveKey(page: Page, url: string, key: string) {
  const origin = new URL(url).origin;
  await page.addInitScript(
    ([origin, storage, key]) => {
      if (location.origin !== origin || window.name === 'key-given') return;
      sessionStorage.setItem(storage, key);
      window.name = 'key-given';
    },
    [origin, KEY_STORAGE, key] as const,
  );
}

/** Opens the sign-in page at its account form (a browser no account has used opens on the key). */
export async function openAccountForm(page: Page, url = '/') {
  await page.goto(url);
  const link = page.getByRole('button', { name: 'I have an account' });
  await link.or(page.getByLabel('E-mail')).waitFor();
  if (await link.isVisible()) await link.click();
}

/** Signs in with an account's e-mail and password and waits for the review page. */
export async function signInWithPassword(page: Page, email: string, password: string) {
  await openAccountForm(page);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
}

export interface Dashboard {
  harness: Harness;
  browser: Browser;
  /**
   * A page (at `viewport`, by default a desktop's) signed in with the project's API key, open on the
   * review page or at `at`, and the console errors it logs.
   */
  signedIn(options?: {
    viewport?: { width: number; height: number };
    at?: string;
  }): Promise<{ page: Page; errors: string[] }>;
  stop(): Promise<void>;
}

/** The dashboard built, served by a translator with `config` (and `options`), and a Chromium to drive it. */
export async function startDashboard(
  config: Parameters<typeof startHarness>[0] = {},
  options: Parameters<typeof startHarness>[1] = {},
): Promise<Dashboard> {
  await ensureBuilt();
  const [harness, browser] = await Promise.all([
    startHarness(config, { ...options, staticDir: distDir }),
    launchChromium(),
  ]);
  return {
    harness,
    browser,
    async signedIn({ viewport, at } = {}) {
      const { page } = await newPage(browser, harness.url, viewport);
      const errors = collectErrors(page);
      await giveKey(page, harness.url, harness.key);
      await page.goto(at ?? '/');
      if (at) await page.getByRole('button', { name: 'Sign out' }).waitFor({ state: 'attached' });
      else await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
      return { page, errors };
    },
    async stop() {
      await closeChromium(browser);
      await harness.stop();
    },
  };
}

/** Gives the project `languages` and registers `keys` (seen on `url`) as approved phrases. */
export async function seedApproved(
  dashboard: Dashboard,
  languages: string[],
  keys: string[],
  url = 'https://shop.test/',
) {
  const { client } = dashboard.harness;
  await client.patch('/api/project/settings', { settings: { languages } });
  await client.post('/api/textnodes', { url, keys: keys.map((key) => ({ key })) });
  const rows = (await client.get('/api/translations/all?limit=100')).body.rows as Array<{ id: number }>;
  await client.patch('/api/textnodes/status', { ids: rows.map((row) => row.id), status: 'approved' });
}
