// Outdated translations in real Chromium: a text changed on the page shows in the grid with the old
// text's translation, what changed, and a Review that says the translation still fits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seedApproved, startDashboard, type Dashboard } from './browser.ts';

describe('outdated translations in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard();
    await seedApproved(dashboard, ['fr'], ['Free delivery on all orders']);
    const { client } = dashboard.harness;
    await client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { key: 'Free delivery on all orders', value: 'Livraison offerte sur toutes les commandes' },
      ],
    });
    await client.post('/api/textnodes', {
      url: 'https://shop.test/',
      keys: [{ key: 'Free delivery on every order' }],
    });
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  it('lists the outdated translation with the change, and a review takes the mark off', async () => {
    const { page, errors } = await dashboard.signedIn({ at: '/translations?lang=fr' });
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Outdated' }).click();
    const note = page.getByTestId('outdated-note');
    await note.waitFor();
    expect(await page.getByTestId('outdated-note').count()).toBe(1);
    await expect(note.locator('del').allTextContents()).resolves.toEqual(['all', 'orders']);
    await expect(note.locator('ins').allTextContents()).resolves.toEqual(['every', 'order']);
    await expect(
      page.getByLabel('Translation of "Free delivery on every order" (fr)').inputValue(),
    ).resolves.toBe('Livraison offerte sur toutes les commandes');
    await screenshot(page, 'grid-outdated');

    await page
      .getByRole('button', { name: 'Review the fr translation of "Free delivery on every order"' })
      .click();
    await page.getByText('No phrases match.').waitFor();
    const delivered = await dashboard.harness.client.get('/api/translations?lang=fr');
    expect(delivered.body).toContainEqual({
      key: 'Free delivery on every order',
      context: '',
      value: 'Livraison offerte sur toutes les commandes',
    });
    expect(errors).toEqual([]);
  });
});
