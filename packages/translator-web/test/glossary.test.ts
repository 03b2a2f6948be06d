// The glossary in real Chromium: a term added on its page, and a translation that does not follow it
// flagged in the grid until it does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seedApproved, startDashboard, type Dashboard } from './browser.ts';

describe('glossary in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard();
    await seedApproved(dashboard, ['fr'], ['Fresh bread daily'], 'https://bakery.test/');
    await dashboard.harness.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Fresh bread daily', value: 'Baguette fraîche chaque jour' }],
    });
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  it('adds a term, and the grid flags the translation that does not follow it until it does', async () => {
    const { page, errors } = await dashboard.signedIn({ at: '/glossary' });
    await page.getByText('No terms yet.').waitFor();
    await page.getByRole('textbox', { name: 'Term' }).fill('bread');
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'French (fr)' }).click();
    await page.getByRole('textbox', { name: 'Translation' }).fill('pain');
    await page.getByRole('button', { name: 'Add term' }).click();
    await page.getByText('“bread” added to the glossary').waitFor();
    const table = page.getByTestId('glossary-terms');
    await table.getByRole('cell', { name: 'pain', exact: true }).waitFor();
    await screenshot(page, 'glossary');

    await page.goto('/translations?lang=fr');
    const notes = page.getByRole('group', {
      name: 'Quality checks of the fr translation of "Fresh bread daily"',
    });
    await notes.getByText('The glossary says: “bread” is “pain”.').waitFor();
    await screenshot(page, 'grid-glossary-check');
    const field = page.getByLabel('Translation of "Fresh bread daily" (fr)');
    await field.fill('Pain frais chaque jour');
    await field.press('Enter');
    await notes.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
