// Browser-test support: the dashboard built once per run, served by the real translator, driven by Chromium.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export { launchChromium, serveSite, collectErrors } from '../../page-client/test/browser.ts';

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const distDir = join(packageDir, 'dist');
export const artifactsDir = resolve(packageDir, '../../test-artifacts/translator-web');

const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

function stale(): boolean {
  const built = join(distDir, 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((name) => newest(join(packageDir, name)) > builtAt);
}

/**
 * Builds the dashboard when dist/ is missing or older than its sources (a few seconds; skipped when
 * fresh). Test files may run in parallel, so one builds under a lock directory while the others wait.
 */
export async function ensureBuilt(): Promise<void> {
  const lock = join(tmpdir(), 'translator-web-build.lock');
  for (;;) {
    if (!stale()) return;
    try {
      mkdirSync(lock);
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) rmSync(lock, { force: true, recursive: true });
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
      if (result.status !== 0) throw new Error(`dashboard build failed:\n${result.stdout}\n${result.stderr}`);
      return;
    } finally {
      rmSync(lock, { force: true, recursive: true });
    }
  }
}

export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };

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

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage: true });
}

/** Signs in through the form and waits for the review page. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Project API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
}
