// Browser-test support: the dashboard built once per run, served by the real translator, driven by Chromium.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { screenshotsIn } from '@app/server-kit/testing/chromium';
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

/** Signs in through the form and waits for the review page. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Project API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
}
