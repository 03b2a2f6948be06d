// Translation states and history in real Chromium: an AI job (the fake OpenAI server) leaves a person's
// edit in the grid untouched, the grid shows whose text each translation is, and a change is reverted
// from the translation's history panel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import type { Harness } from '@app/translator/testing';
import { screenshot, startDashboard, type Dashboard } from './browser.ts';

describe('translation states and history in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;
  let harness: Harness;
  let fake: FakeOpenAI;
  let page: Page;
  let errors: string[];
  let ids: Record<string, number>;

  const valueOf = async (key: string) =>
    (
      (await harness.client.get('/api/translations/all?lang=fr')).body.rows as {
        key: string;
        value: string;
      }[]
    ).find((row) => row.key === key)?.value;

  async function runAiJob() {
    const started = await harness.client.post('/api/ai-jobs', { key_ids: Object.values(ids), lang: 'fr' });
    expect(started.status).toBe(202);
    await expect
      .poll(async () => (await harness.client.get(`/api/ai-jobs/${started.body.jobId}`)).body.status, {
        timeout: 15_000,
      })
      .toBe('completed');
  }

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-states-test' });
    dashboard = await startDashboard({ ai: { baseUrl: fake.baseUrl, batchSize: 10, parallelCalls: 1 } });
    harness = dashboard.harness;
    await harness.client.patch('/api/project/settings', {
      settings: { languages: ['fr'], translationProviderApiKey: 'sk-states-test' },
    });
    await harness.client.post('/api/textnodes', {
      keys: [{ key: 'Fresh bread' }, { key: 'Open on Sundays' }],
      url: 'https://bakery.test/',
    });
    const rows = (await harness.client.get('/api/translations/all')).body.rows as {
      id: number;
      key: string;
    }[];
    ids = Object.fromEntries(rows.map((row) => [row.key, row.id]));
    await harness.client.patch('/api/textnodes/status', { ids: Object.values(ids), status: 'approved' });
    ({ page, errors } = await dashboard.signedIn());
  }, 120_000);

  afterAll(async () => {
    await dashboard?.stop();
    await fake?.close();
  });

  const rowOf = (key: string) => page.locator('tr', { has: page.getByLabel(`Translation of "${key}" (fr)`) });
  /** The state chip beside the phrase (the history panel shows chips of its own). */
  const chipOf = (key: string, label: string) =>
    rowOf(key).locator('td').first().getByTestId('translation-state').getByText(label);

  it('an AI job leaves a human edit in the grid untouched and offers its text as a suggestion', async () => {
    await runAiJob();
    await page.goto('/translations?lang=fr');
    const bread = page.getByLabel('Translation of "Fresh bread" (fr)');
    await bread.waitFor();
    expect(await bread.inputValue()).toBe('[fr] Fresh bread');
    await chipOf('Fresh bread', 'Machine').waitFor();

    await bread.fill('Pain frais du jour');
    await bread.press('Enter');
    await chipOf('Fresh bread', 'Human').waitFor();

    fake.set({ translate: (text) => `IA: ${text}` });
    await runAiJob();
    expect(await valueOf('Fresh bread')).toBe('Pain frais du jour');
    expect(await valueOf('Open on Sundays')).toBe('IA: Open on Sundays');
    await page.reload();
    await bread.waitFor();
    expect(await bread.inputValue()).toBe('Pain frais du jour');
    await rowOf('Fresh bread')
      .getByTestId('ai-suggestion')
      .getByText('AI suggestion: IA: Fresh bread')
      .waitFor();
    expect(await page.getByLabel('Translation of "Open on Sundays" (fr)').inputValue()).toBe(
      'IA: Open on Sundays',
    );

    // The state filter shows only the person's translation.
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Human' }).click();
    await page.waitForURL(/state=human/);
    await expect.poll(() => page.getByTestId('grid-table').locator('tbody tr').count()).toBe(1);
    await screenshot(page, 'grid-states');

    // So does the review page, once a language is picked.
    await page.goto('/review?status=approved');
    const table = page.getByTestId('review-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    await page.getByRole('combobox', { name: 'Translation into' }).click();
    await page.getByRole('option', { name: 'French (fr)' }).click();
    await page.getByRole('combobox', { name: 'Translation state' }).click();
    await page.getByRole('option', { name: 'Human' }).click();
    await page.waitForURL(/state=human/);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await table.getByText('Fresh bread').waitFor();
  });

  it('reverts a change from the history panel', async () => {
    await page.goto('/translations?lang=fr');
    await page.getByRole('button', { name: 'History of the fr translation of "Fresh bread"' }).click();
    const panel = page.getByRole('region', { name: 'History of the fr translation of "Fresh bread"' });
    await expect.poll(() => panel.getByTestId('history-entry').count()).toBe(2);
    await panel.getByRole('button', { name: 'Revert the change to "Pain frais du jour"' }).click();
    await expect.poll(() => valueOf('Fresh bread')).toBe('[fr] Fresh bread');
    await expect
      .poll(() => page.getByLabel('Translation of "Fresh bread" (fr)').inputValue())
      .toBe('[fr] Fresh bread');
    await chipOf('Fresh bread', 'Machine').waitFor();
    await expect.poll(() => panel.getByTestId('history-entry').count()).toBe(3);
    await panel.getByText('reverted by key:', { exact: false }).waitFor();
    await screenshot(page, 'history');
    expect(errors).toEqual([]);
  });
});
