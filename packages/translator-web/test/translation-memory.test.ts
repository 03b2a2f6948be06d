// The translation memory in real Chromium: focusing a phrase's field shows what people translated for
// similar texts, with the score, and Use puts the match in the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seedApproved, startDashboard, type Dashboard } from './browser.ts';

describe('translation memory in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard();
    await seedApproved(dashboard, ['fr'], ['Add to cart', 'Add to carts']);
    await dashboard.harness.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Add to cart', value: 'Ajouter au panier' }],
    });
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  it('offers a fuzzy match with its score when a field is focused, and Use fills the field', async () => {
    const { page, errors } = await dashboard.signedIn({ at: '/translations?lang=fr' });
    const field = page.getByLabel('Translation of "Add to carts" (fr)');
    await field.focus();
    const memory = page.getByRole('group', { name: 'Translation memory for "Add to carts"' });
    await memory.getByText('Memory: Ajouter au panier').waitFor();
    await expect(memory.getByText('91%').isVisible()).resolves.toBe(true);
    await screenshot(page, 'grid-translation-memory');
    // The phrase whose translation the memory holds is offered nothing new.
    await page.getByLabel('Translation of "Add to cart" (fr)').focus();
    expect(await page.getByRole('group', { name: 'Translation memory for "Add to cart"' }).count()).toBe(0);

    await memory.getByRole('button', { name: 'Use the 91% memory match "Ajouter au panier"' }).click();
    await expect(field.inputValue()).resolves.toBe('Ajouter au panier');
    await field.press('Enter');
    await page.getByTestId('cell-done').first().waitFor();
    const saved = await dashboard.harness.client.get('/api/translations?lang=fr');
    expect(saved.body).toContainEqual({ key: 'Add to carts', context: '', value: 'Ajouter au panier' });
    expect(errors).toEqual([]);
  });
});
