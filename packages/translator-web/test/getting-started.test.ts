// A new project's first steps in real Chromium: the review page lists them, ticks each once it is so,
// and goes away by itself when the first page's text arrives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startDashboard, type Dashboard } from './browser.ts';

describe('getting started in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard();
    await dashboard.harness.client.patch('/api/project/settings', {
      settings: { languages: [], allowedOrigins: [] },
    });
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  it('ticks the steps as they are done and leaves once a page was seen', async () => {
    const { client } = dashboard.harness;
    const { page, errors } = await dashboard.signedIn();
    const card = page.getByTestId('getting-started');
    const steps = card.getByRole('listitem');
    await card.waitFor();
    expect(await steps.evaluateAll((items) => items.map((item) => item.getAttribute('data-done')))).toEqual([
      'false',
      'false',
      'false',
      'false',
    ]);
    expect(await steps.first().textContent()).toContain(
      'To do: Choose the languages to translate into, in Settings.',
    );
    await screenshot(page, 'getting-started');

    await client.patch('/api/project/settings', {
      settings: { languages: ['fr'], allowedOrigins: ['https://shop.test'] },
    });
    await page.reload();
    await expect
      .poll(() => steps.evaluateAll((items) => items.map((item) => item.getAttribute('data-done'))))
      .toEqual(['true', 'true', 'false', 'false']);

    // The first page view: the card sees it without a reload.
    await client.post('/api/textnodes', { keys: [{ key: 'Fresh bread' }], url: 'https://shop.test/' });
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByText('Fresh bread').waitFor();
    expect(errors).toEqual([]);
  });
});
