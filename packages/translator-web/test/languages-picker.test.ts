// The target languages in Settings, picked in real Chromium by name, and by code for one the list does
// not name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, screenshot, startDashboard, type Dashboard } from './browser.ts';

describe('language picker in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard();
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  it('finds a language by its name and takes a code the list does not name', async () => {
    const { page, errors } = await dashboard.signedIn({ at: '/settings' });
    const picker = page.getByRole('combobox', { name: 'Target languages' });
    await picker.fill('French');
    await page.getByRole('option', { name: 'French (fr)', exact: true }).click();
    await picker.fill('Portuguese (Br');
    await page.getByRole('option', { name: 'Portuguese (Brazil) (pt-BR)' }).click();
    await picker.fill('Klingonese');
    await page.getByText('No language by that name: type its code instead').waitFor();
    await picker.fill('gsw');
    await page.getByRole('option', { name: 'Use the code “gsw”' }).click();
    await screenshot(page, 'settings-languages');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByTestId('language-names').getByText('Swiss German (gsw)').waitFor();

    const project = await dashboard.harness.client.get('/api/project');
    expect(project.body.settings.languages).toEqual(['fr', 'pt-BR', 'gsw']);
    expect(errors).toEqual([]);
  });

  for (const [name, viewport] of [
    ['desktop', undefined],
    ['phone', PHONE],
  ] as const)
    it(`ranks the exact code first and adds the highlighted language with Enter, without saving (${name})`, async () => {
      await dashboard.harness.client.patch('/api/project/settings', { settings: { languages: [] } });
      const { page, errors } = await dashboard.signedIn({ viewport, at: '/settings' });
      const picker = page.getByRole('combobox', { name: 'Target languages' });
      await picker.fill('fr');
      await expect.poll(() => page.getByRole('option').first().textContent()).toBe('French (fr)');
      await picker.press('Enter');
      // The pill, once the option (hidden when picked) is gone from the list.
      await page.getByRole('option', { name: 'French (fr)', exact: true }).waitFor({ state: 'detached' });
      await page.getByText('French (fr)', { exact: true }).waitFor();
      expect(await picker.inputValue()).toBe('');
      // Enter in the emptied field adds nothing (the first language is highlighted there).
      await picker.press('Enter');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByTestId('language-names').getByText('French (fr)').waitFor();
      // Saved once: by the button, not by Enter too.
      expect(await page.getByText('Settings saved').count()).toBe(1);
      expect((await dashboard.harness.client.get('/api/project')).body.settings.languages).toEqual(['fr']);
      expect(errors).toEqual([]);
    });

  it('keeps Save in reach while Settings has unsaved changes, and asks before leaving them or a new project name (desktop and phone)', async () => {
    const { client } = dashboard.harness;
    for (const viewport of [undefined, PHONE]) {
      const { page, errors } = await dashboard.signedIn({ viewport });
      const goToReview = async () => {
        if (viewport) await page.getByRole('button', { name: 'Open navigation' }).click();
        await page.getByRole('navigation').getByRole('link', { name: 'Review' }).click();
      };
      await page.goto('/settings');
      const origin = page.getByRole('textbox', { name: "SEO mode: the site's origin" });
      await origin.click();
      await page.keyboard.type('https://www.shop.example');
      const save = (await page.getByRole('button', { name: 'Save settings' }).boundingBox())!;
      expect(save.y).toBeGreaterThanOrEqual(0);
      expect(save.y + save.height).toBeLessThanOrEqual(page.viewportSize()!.height);
      await screenshot(page, `settings-unsaved-${viewport ? 'phone' : 'desktop'}`);

      // Leaving inside the dashboard asks; staying keeps the change.
      await goToReview();
      const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await ask.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe('/settings');
      expect(await origin.inputValue()).toBe('https://www.shop.example');
      await goToReview();
      await ask.getByRole('button', { name: 'Leave without saving' }).click();
      await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
      expect((await client.get('/api/project')).body.settings.seoOrigin).toBe('');

      // A new project name not yet saved is asked about too.
      await page.goto('/settings');
      await page.getByRole('textbox', { name: 'Project name' }).fill('Renamed shop');
      await goToReview();
      await ask.getByText('The new project name is not saved.').waitFor();
      await ask.getByRole('button', { name: 'Leave without saving' }).click();
      await page.getByRole('heading', { name: 'Review phrases' }).waitFor();

      // Closing or reloading the tab has the browser ask.
      await page.goto('/settings');
      await origin.click();
      await page.keyboard.type('https://www.shop.example');
      const dialog = page.waitForEvent('dialog');
      await page.close({ runBeforeUnload: true });
      const asked = await dialog;
      expect(asked.type()).toBe('beforeunload');
      await asked.accept();
      expect(errors).toEqual([]);
    }
  });
});
