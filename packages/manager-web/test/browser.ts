// Browser-test support: a built client served by the real manager, and real Chromium driving it.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import {
  closeChromium,
  collectErrors,
  launchChromium,
  newPage,
  screenshotsIn,
} from '@app/server-kit/testing/chromium';
import { ensureViteBuild } from '@app/server-kit/testing/vite-build';
import { afterAll, beforeAll, expect } from 'vitest';
import { adminClient, startManager, type ManagerClient, type TestManager } from '@app/manager/testing';

export { closeChromium, launchChromium, newPage };

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds the client when dist/ is missing or older than its sources. */
export const ensureBuilt = (): Promise<void> => ensureViteBuild(packageDir, 'web client');

export const screenshot = screenshotsIn('manager-web');

/**
 * Signs in through the login form and waits for the signed-in frame: for the tests of the form itself.
 * Other tests use signIn, which starts the same session without the form's page.
 */
export async function signInThroughForm(page: Page, username: string, password = 'correct horse') {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await landed(page);
}

/**
 * Signs in as the login form does (its request, from the page's own cookie jar) and opens the client
 * where signing in lands, or at `at`, once its signed-in frame is up: a page load or two less than the
 * form and a navigation after it take (a tenth of the browser suites' time).
 */
export async function signIn(page: Page, username: string, at?: string): Promise<void> {
  const password = 'correct horse';
  const response = await page.request.post('/api/v1/auth/login', { data: { username, password } });
  if (!response.ok())
    throw new Error(`sign-in of ${username}: ${response.status()} ${await response.text()}`);
  await page.goto(at ?? '/');
  if (at) await page.getByTestId('current-user').waitFor({ state: 'attached' });
  else await landed(page);
}

async function landed(page: Page) {
  await page.getByTestId('current-user').waitFor({ state: 'attached' });
  // Signing in lands on / and is sent on to /containers, then, once the sites are in, to the first
  // site's list. A click made before the last hop is undone by it (seen on a loaded machine), so tests
  // start from where the landing ends, as a person would.
  await Promise.race([page.waitForURL(/\/sites\/\d+\/containers/), page.getByText('No sites yet').waitFor()]);
  await page.getByRole('heading', { name: /^Containers/ }).waitFor();
}

/** Polls `read` until the assertion chained on it holds, as patiently as the page's own waits. */
export function poll<T>(read: () => T | Promise<T>, timeout = 15_000) {
  return expect.poll(read, { timeout, interval: 100 });
}

/**
 * Waits for the notification (toast) that says `text` and closes it, as a person does once it is
 * read: stacked toasts otherwise cover the page header's buttons until they close by themselves.
 */
export async function readToast(page: Page, text: string | RegExp): Promise<void> {
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
  await toast.waitFor();
  await toast.getByRole('button').click();
  await toast.waitFor({ state: 'detached' });
}

/** Records page errors and state-changing API calls (to check the CSRF header on each). */
export function watch(page: Page) {
  const errors = collectErrors(page, { consoleErrors: false });
  const writes: Array<{ method: string; url: string; csrf: string | undefined }> = [];
  let csrfFetches = 0;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/csrf-token') csrfFetches += 1;
    if (url.pathname.startsWith('/api/') && request.method() !== 'GET')
      writes.push({ method: request.method(), url: url.pathname, csrf: request.headers()['x-csrf-token'] });
  });
  return { errors, writes, csrfFetches: () => csrfFetches };
}

export interface BrowserSuite {
  test: TestManager;
  browser: Browser;
  /** The first registered user, `admin`, signed in through the API. */
  admin: ManagerClient;
}

/**
 * One real manager (with `env`) and one Chromium for a test file, started before its tests and
 * closed after them; the first user, `admin`, is registered. Read the members inside tests.
 */
export function browserSuite(env: Record<string, string> = {}): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    await ensureBuilt();
    [suite.test, suite.browser] = await Promise.all([startManager(env), launchChromium()]);
    suite.admin = await adminClient(suite.test, 'admin');
  }, 120_000);
  afterAll(async () => {
    await closeChromium(suite.browser);
    await suite.test?.close();
  });
  return suite;
}

/** A fresh browser context signed in as `username` (at `at`), with its page errors and writes recorded. */
export async function signedInPage(suite: BrowserSuite, username: string, at?: string) {
  const { context, page } = await newPage(suite.browser, suite.test.baseUrl);
  const seen = watch(page);
  await signIn(page, username, at);
  return { context, page, seen };
}
