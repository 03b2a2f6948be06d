// A new project's first steps in real Chromium: the review page lists them, ticks each once it is so,
// and goes away by itself when the first page's text arrives; the sign-in page before them, and the review
// page itself, cost at most 200 KB of compressed JavaScript each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetBreaches, scriptsFetched } from '@app/server-kit/testing/page-budget';
import {
  collectErrors,
  giveKey,
  newPage,
  PHONE,
  screenshot,
  startDashboard,
  type Dashboard,
} from './browser.ts';

describe('getting started in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard();
    await dashboard.harness.client.patch('/api/project/settings', {
      settings: { languages: [], allowedOrigins: [] },
    });
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  it('sends at most 200 KB of compressed JavaScript before the sign-in page shows', async () => {
    const { context, page } = await newPage(dashboard.browser, dashboard.harness.url);
    const scripts = await scriptsFetched(page, async () => {
      await page.goto('/');
      await page.getByLabel('Project API key').waitFor();
    });
    expect(budgetBreaches(scripts)).toEqual([]);
    await context.close();
  });

  it('sends at most 200 KB of compressed JavaScript before the first page a signed-in team opens shows', async () => {
    const { context, page } = await newPage(dashboard.browser, dashboard.harness.url);
    await giveKey(page, dashboard.harness.url, dashboard.harness.key);
    const scripts = await scriptsFetched(page, async () => {
      await page.goto('/');
      await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
    });
    expect(budgetBreaches(scripts)).toEqual([]);
    await context.close();
  });

  it('ticks the steps as they are done and leaves once a page was seen', async () => {
    const { client } = dashboard.harness;
    const { page, errors } = await dashboard.signedIn();
    const card = page.getByTestId('getting-started');
    const steps = card.getByRole('listitem');
    await card.waitFor();
    expect(
      await steps.evaluateAll((items) => items.map((item) => item.getAttribute('data-step-state'))),
    ).toEqual(['todo', 'todo', 'todo', 'todo']);
    expect(await steps.first().textContent()).toContain(
      'To do: Choose the languages to translate into, in Settings.',
    );
    await screenshot(page, 'getting-started');

    await client.patch('/api/project/settings', {
      settings: { languages: ['fr'], allowedOrigins: ['https://shop.test'] },
    });
    await page.reload();
    await expect
      .poll(() => steps.evaluateAll((items) => items.map((item) => item.getAttribute('data-step-state'))))
      .toEqual(['done', 'done', 'todo', 'todo']);

    // The first page view: the card sees it without a reload.
    await client.post('/api/textnodes', { keys: [{ key: 'Fresh bread' }], url: 'https://shop.test/' });
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByText('Fresh bread').waitFor();
    expect(errors).toEqual([]);
  });

  it('opens on the project key, says where to find it and makes an owner account with it (desktop and phone)', async () => {
    for (const [name, viewport] of [
      ['desktop', undefined],
      ['phone', PHONE],
    ] as const) {
      const { page } = await newPage(dashboard.browser, dashboard.harness.url, viewport);
      const errors = collectErrors(page);
      await page.goto('/');
      await page.getByLabel('Project API key').fill(dashboard.harness.key);
      const explained = await page.getByText('A new project starts with its API key').textContent();
      expect(explained).toContain('Translator default project created. API key:');
      expect(explained).toContain('npm run translator -- project key 1');
      await page.getByLabel('Create my account as the project’s owner').check();
      await page.getByLabel('Your e-mail').fill(`ada-${name}@example.test`);
      await screenshot(page, `first-run-${name}`);
      await page.getByRole('button', { name: 'Create my account' }).click();
      await page.getByText('You are invited as').waitFor();
      await page.getByLabel('Your name').fill('Ada');
      await page.getByLabel('Choose a password').fill('a long enough password');
      await page.getByLabel('Repeat the password').fill('a long enough password');
      await page.getByRole('button', { name: 'Accept the invitation' }).click();
      await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
      if (!viewport) expect(await page.getByTestId('account').textContent()).toBe('Ada · Owner');
      // Signed in with the account, not the key; next time this browser opens on the account form.
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });
});
