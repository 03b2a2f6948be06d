// Quality checks in real Chromium: a translator saving a translation whose sentence end differs from the
// source sees why under the field, the note goes once it is mended, and Analytics scores the project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Harness } from '@app/translator/testing';
import { screenshot, startDashboard, type Dashboard } from './browser.ts';

describe('quality checks in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;
  let harness: Harness;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    dashboard = await startDashboard();
    harness = dashboard.harness;
    await harness.client.patch('/api/project/settings', { settings: { languages: ['fr'] } });
    await harness.client.post('/api/textnodes', {
      keys: [{ key: 'Your order is on its way.' }, { key: 'Welcome' }],
      url: 'https://shop.test/',
    });
    const rows = (await harness.client.get('/api/translations/all')).body.rows as Array<{ id: number }>;
    await harness.client.patch('/api/textnodes/status', {
      ids: rows.map((row) => row.id),
      status: 'approved',
    });
    await harness.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Welcome', value: 'Bienvenue' }],
    });
    ({ page, errors } = await dashboard.signedIn());
  }, 120_000);

  afterAll(async () => dashboard?.stop());

  it('flags a translation in the grid until it is mended', async () => {
    await page.goto('/translations?lang=fr');
    const field = page.getByLabel('Translation of "Your order is on its way." (fr)');
    await field.fill('Votre commande est en route');
    await field.press('Enter');
    const notes = page.getByRole('group', {
      name: 'Quality checks of the fr translation of "Your order is on its way."',
    });
    await notes.getByText('The source ends with “.”; the translation without a mark.').waitFor();
    await screenshot(page, 'grid-quality-checks');
    expect(await page.getByTestId('quality-checks').count()).toBe(1);

    await field.fill('Votre commande est en route.');
    await field.press('Enter');
    await notes.waitFor({ state: 'detached' });
    expect(await page.getByTestId('quality-checks').count()).toBe(0);
  });

  it('scores the project on Analytics', async () => {
    await harness.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Welcome', value: 'Bienvenue !' }],
    });
    await page.goto('/analytics');
    await expect.poll(() => page.getByTestId('quality-score').textContent()).toBe('50% pass every check');
    const failing = page.getByTestId('quality').locator('[data-check="end_punctuation"]');
    expect(await failing.textContent()).toBe('Sentence end differs1');
    expect(errors).toEqual([]);
  });
});
