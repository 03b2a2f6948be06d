// Translating in the grid in real Chromium as a translator works through a list: slots go in with a
// click where the cursor is, Enter saves and moves to the next phrase, a translation losing a slot is kept
// on its row with the reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { contrastRatio, drawnColours } from '@app/server-kit/testing/axe';
import { PHONE, screenshot, seedApproved, startDashboard, type Dashboard } from './browser.ts';

describe('grid editing in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard();
    await seedApproved(dashboard, ['fr'], ['You have 3 new messages', 'Welcome', 'Goodbye']);
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  const valueOf = async (key: string) =>
    (
      (await dashboard.harness.client.get('/api/translations/all?lang=fr')).body.rows as Array<{
        key: string;
        value: string | null;
      }>
    ).find((row) => row.key === key)?.value;

  const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

  it('saves with Enter and moves on to the next phrase, in the order the grid shows', async () => {
    const { page, errors } = await dashboard.signedIn({ at: '/translations?lang=fr' });
    const goodbye = page.getByLabel('Translation of "Goodbye" (fr)');
    await goodbye.waitFor();
    const order = await page
      .locator('textarea[data-translation-field]')
      .evaluateAll((fields) => fields.map((f) => f.getAttribute('aria-label')));
    expect(order).toEqual([
      'Translation of "Goodbye" (fr)',
      'Translation of "Welcome" (fr)',
      'Translation of "You have {{number:0}} new messages" (fr)',
    ]);
    await goodbye.fill('Au revoir');
    await goodbye.press('Enter');
    await expect.poll(() => focused(page)).toBe('Translation of "Welcome" (fr)');
    expect(await valueOf('Goodbye')).toBe('Au revoir');
    // Enter on a field left as it was moves on too.
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('Translation of "You have {{number:0}} new messages" (fr)');
    expect(await valueOf('Welcome')).toBeNull();
    expect(errors).toEqual([]);
  });

  it('inserts a slot where the cursor is', async () => {
    const { page } = await dashboard.signedIn({ at: '/translations?lang=fr' });
    const key = 'You have {{number:0}} new messages';
    const field = page.getByLabel(`Translation of "${key}" (fr)`);
    await field.fill('Vous avez  nouveaux messages');
    // The cursor between the two spaces, then the slot's button.
    await field.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(10, 10));
    await page
      .getByRole('button', { name: `Insert {{number:0}} into the fr translation of "${key}"` })
      .click();
    expect(await field.inputValue()).toBe('Vous avez {{number:0}} nouveaux messages');
    await screenshot(page, 'grid-slot-inserted');
    await field.press('Enter');
    await expect.poll(() => valueOf(key)).toBe('Vous avez {{number:0}} nouveaux messages');
    // The slot buttons are gone once the translation holds every slot.
    expect(await page.getByRole('button', { name: /^Insert \{\{number:0\}\}/ }).count()).toBe(0);
  });

  it('does not send a translation that loses a slot, and says so on its row', async () => {
    const { page } = await dashboard.signedIn({ at: '/translations?lang=fr' });
    const key = 'You have {{number:0}} new messages';
    const field = page.getByLabel(`Translation of "${key}" (fr)`);
    await field.fill('Vous avez des messages');
    await field.press('Enter');
    const row = page.locator('tr', { has: field });
    await row.getByText('Missing slot {{number:0}}').waitFor();
    expect(await focused(page)).toBe(`Translation of "${key}" (fr)`);
    expect(await valueOf(key)).toBe('Vous avez {{number:0}} nouveaux messages');
  });

  for (const [name, viewport] of [
    ['desktop', undefined],
    ['phone', PHONE],
  ] as const)
    it(`gives a translated row's field and buttons room to read (${name})`, async () => {
      await dashboard.harness.client.post('/api/translations', {
        lang: 'fr',
        translations: [{ key: 'Welcome', context: '', value: 'Bienvenue' }],
      });
      const { page, errors } = await dashboard.signedIn({ viewport, at: '/translations?lang=fr' });
      const field = page.getByLabel('Translation of "Welcome" (fr)');
      await field.waitFor();
      const row = page.locator('tr', { has: field });
      const buttons = [
        row.getByRole('button', { name: 'Save' }),
        row.getByRole('button', { name: 'Review the fr translation of "Welcome"' }),
        row.getByRole('button', { name: 'History of the fr translation of "Welcome"' }),
        row.getByRole('button', { name: 'Delete the fr translation of "Welcome"' }),
      ];
      const box = (await field.boundingBox())!;
      const width = page.viewportSize()!.width;
      // On a phone the field spans the card; on a desktop it has a column's room, buttons beside it.
      expect(box.width).toBeGreaterThan(viewport ? width * 0.75 : 300);
      for (const button of buttons) {
        const at = (await button.boundingBox())!;
        expect(at.x + at.width).toBeLessThanOrEqual(width);
        if (viewport) expect(at.y).toBeGreaterThanOrEqual(box.y + box.height);
        else expect(at.y).toBeLessThan(box.y + box.height);
      }
      // Every label is whole ("Save", "Review"), not cut to "Sav", "Revie".
      for (const button of buttons.slice(0, 2))
        expect(
          await button.evaluate((element) =>
            [element, ...element.querySelectorAll('*')].every((e) => e.scrollWidth <= e.clientWidth),
          ),
        ).toBe(true);
      // The text runs along one line, not a letter a line.
      expect(box.height).toBeLessThan(60);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `grid-translated-row-${name}`);
      expect(errors).toEqual([]);
    });

  it('draws placeholders lighter than values, and an error toast’s reason at AA (light desktop, dark phone)', async () => {
    const { client } = dashboard.harness;
    for (const [scheme, viewport] of [
      ['light', undefined],
      ['dark', PHONE],
    ] as const) {
      const [empty, translated] = [`Opening hours (${scheme})`, `Closed (${scheme})`];
      await seedApproved(dashboard, ['fr'], [empty, translated]);
      await client.post('/api/translations', {
        lang: 'fr',
        translations: [{ key: translated, context: '', value: 'Fermé' }],
      });
      const { page } = await dashboard.signedIn({ viewport });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/translations?lang=fr');
      const placeholder = await drawnColours(
        page.getByLabel(`Translation of "${empty}" (fr)`),
        '::placeholder',
      );
      const value = await drawnColours(page.getByLabel(`Translation of "${translated}" (fr)`));
      const onField = contrastRatio(placeholder.text, placeholder.background);
      // An empty field must not read as one holding the words "Not translated".
      expect(onField, scheme).toBeGreaterThanOrEqual(4.5);
      expect(onField, scheme).toBeLessThan(6);
      expect(contrastRatio(placeholder.text, value.text), scheme).toBeGreaterThanOrEqual(1.5);

      // The phrase goes while the grid shows it: deleting its translation fails with a reason.
      const { id } = (await client.get(`/api/translations/all?search=${encodeURIComponent(translated)}`)).body
        .rows[0];
      await client.delete(`/api/textnodes/${id}`);
      await page.getByRole('button', { name: `Delete the fr translation of "${translated}"` }).click();
      const reason = page.locator('.mantine-Notification-description');
      await reason.waitFor();
      const toast = await drawnColours(reason);
      expect(contrastRatio(toast.text, toast.background), scheme).toBeGreaterThanOrEqual(4.5);
      await screenshot(page, `grid-placeholder-toast-${scheme}`);
    }
  });

  it('shows other languages beside the first, on the same phrases whatever its filters, each editable (desktop and phone)', async () => {
    const { client } = dashboard.harness;
    const [both, german] = ['Fresh bread', 'Open on Sundays'];
    await seedApproved(dashboard, ['fr', 'de', 'es'], [both, german]);
    await client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: both, value: 'Pain frais' }],
    });
    await client.post('/api/translations', {
      lang: 'de',
      translations: [
        { key: both, value: 'Frisches Brot' },
        { key: german, value: 'Sonntags geöffnet' },
      ],
    });
    const germanOf = async (key: string) =>
      (
        (await client.get(`/api/translations/all?lang=de&search=${encodeURIComponent(key)}`)).body
          .rows as Array<{
          value: string | null;
        }>
      )[0]?.value;

    // The French phrases not yet translated, and German beside them: its translations of those phrases.
    const { page, errors } = await dashboard.signedIn({ at: '/translations?lang=fr&untranslated=1' });
    await page.getByLabel(`Translation of "${german}" (fr)`).waitFor();
    await page.getByRole('combobox', { name: 'Side by side with' }).click();
    await page.getByRole('option', { name: 'German (de)' }).click();
    await page.keyboard.press('Escape');
    const beside = page.getByLabel(`Translation of "${german}" (de)`);
    await expect.poll(() => beside.inputValue()).toBe('Sonntags geöffnet');
    expect(await page.getByLabel(`Translation of "${both}" (fr)`).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('beside')).toBe('de');
    await beside.fill('Sonntags offen');
    await beside.press('Enter');
    await expect.poll(() => germanOf(german)).toBe('Sonntags offen');
    await screenshot(page, 'grid-side-by-side-desktop');
    expect(errors).toEqual([]);

    // On a phone the address keeps the languages; each card holds one field per language, within the screen.
    const phone = await dashboard.signedIn({ viewport: PHONE, at: '/translations?lang=fr&beside=de,es' });
    for (const code of ['fr', 'de', 'es']) {
      const field = phone.page.getByLabel(`Translation of "${both}" (${code})`);
      await field.waitFor();
      const box = (await field.boundingBox())!;
      expect(box.x + box.width, code).toBeLessThanOrEqual(PHONE.width);
      expect(box.width, code).toBeGreaterThan(PHONE.width * 0.6);
    }
    expect(await phone.page.getByLabel(`Translation of "${both}" (de)`).inputValue()).toBe('Frisches Brot');
    await screenshot(phone.page, 'grid-side-by-side-phone');
    expect(phone.errors).toEqual([]);
  });
});
