// Screenshots as context in real Chromium: the translator's own Chromium photographs a page served on
// loopback, and the Review page shows the image beside its phrase.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranslatorOptions } from '@app/translator';
import { screenshot, serveSite, startDashboard, type Dashboard } from './browser.ts';

const SCREENSHOTS: NonNullable<TranslatorOptions['screenshots']> = {
  chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  // The test site is on 127.0.0.1: the browser may reach it by that name.
  allowlist: ['127.0.0.1'],
  perRun: 50,
  pageTimeoutMs: 10_000,
  debounceMs: 50,
  pollMs: 60_000,
  retryFailedHours: 24,
  maxBytes: 200 * 1024,
};

const PAGE = `<!doctype html><html lang="en"><head><title>Shop</title></head>
<body style="font: 16px sans-serif"><h1>Welcome to our shop</h1><p>Fresh bread every morning.</p></body></html>`;

describe('screenshots in the dashboard', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;
  let site: Awaited<ReturnType<typeof serveSite>>;

  beforeAll(async () => {
    site = await serveSite({ '/': PAGE });
    dashboard = await startDashboard({}, { screenshots: SCREENSHOTS });
    const { client } = dashboard.harness;
    await client.patch('/api/project/settings', {
      settings: { languages: ['fr'], screenshotsEnabled: true },
    });
    await client.post('/api/textnodes', { url: `${site.url}/`, keys: [{ key: 'Welcome to our shop' }] });
    // Seen on no page: no screenshot.
    await client.post('/api/textnodes', { keys: [{ key: 'Only in a file' }] });
    const until = Date.now() + 30_000;
    for (;;) {
      const status = (await client.get('/api/screenshots/status')).body;
      if (status.captured === 1) break;
      if (Date.now() > until) throw new Error(`no screenshot: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 120_000);
  afterAll(async () => {
    await dashboard?.stop();
    await site?.close();
  });

  it('a screenshot is shown beside its phrase', async () => {
    const { page, errors } = await dashboard.signedIn();
    const row = page.locator('tr', { hasText: 'Welcome to our shop' });
    const thumbnail = row.getByRole('button', { name: 'Show where "Welcome to our shop" appears' });
    await thumbnail.locator('img').waitFor();
    const natural = await thumbnail
      .locator('img')
      .evaluate((image: HTMLImageElement) => image.decode().then(() => image.naturalWidth));
    expect(natural).toBeGreaterThan(0);
    // A phrase without one has none.
    expect(await page.getByRole('button', { name: 'Show where "Only in a file" appears' }).count()).toBe(0);

    await thumbnail.click();
    const dialog = page.getByRole('dialog', { name: 'Where it appears' });
    const full = dialog.getByRole('img', {
      name: 'Screenshot of the page where "Welcome to our shop" appears, outlined in red',
    });
    await full.waitFor();
    const size = await full.evaluate((image: HTMLImageElement) =>
      image.decode().then(() => ({ width: image.naturalWidth, height: image.naturalHeight })),
    );
    expect(size.width).toBeGreaterThan(100);
    expect(size.height).toBeGreaterThan(50);
    await screenshot(page, 'review-screenshot-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });
});
