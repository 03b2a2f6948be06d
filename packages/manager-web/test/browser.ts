// Browser-test support: a built client served by the real manager, and real Chromium driving it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  adminClient,
  startManager,
  type ManagerClient,
  type TestManager,
} from '../../manager/test/helpers.ts';

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const artifactsDir = resolve(packageDir, '../../test-artifacts/manager-web');

const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

function stale(): boolean {
  const built = join(packageDir, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((name) => newest(join(packageDir, name)) > builtAt);
}

/**
 * Builds the client when dist/ is missing or older than its sources. Test files run in parallel, so
 * one builds under a lock directory while the others wait for it.
 */
export async function ensureBuilt(): Promise<void> {
  const lock = join(tmpdir(), 'manager-web-build.lock');
  for (;;) {
    if (!stale()) return;
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is building; a lock older than two minutes is left over from a crash.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 120_000)
        rmSync(lock, { force: true, recursive: true });
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      if (!stale()) return;
      const vite = join(packageDir, '../../node_modules/vite/bin/vite.js');
      const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
        cwd: packageDir,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: 'production' },
      });
      if (result.status !== 0)
        throw new Error(`web client build failed:\n${result.stdout}\n${result.stderr}`);
      return;
    } finally {
      rmSync(lock, { force: true, recursive: true });
    }
  }
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** Debian's Chromium; playwright gives every launch a fresh temporary user-data-dir. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = { width: 1280, height: 860 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage: true });
}

/** Signs in through the login form and waits for the signed-in frame. */
export async function signIn(page: Page, username: string, password = 'correct horse'): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('current-user').waitFor({ state: 'attached' });
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
  const errors: string[] = [];
  const writes: Array<{ method: string; url: string; csrf: string | undefined }> = [];
  let csrfFetches = 0;
  page.on('pageerror', (error) => errors.push(error.message));
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
    await suite.browser?.close();
    await suite.test?.close();
  });
  return suite;
}

/** A fresh browser context signed in as `username`, with its page errors and writes recorded. */
export async function signedInPage(suite: BrowserSuite, username: string) {
  const { context, page } = await newPage(suite.browser, suite.test.baseUrl);
  const seen = watch(page);
  await signIn(page, username);
  return { context, page, seen };
}
