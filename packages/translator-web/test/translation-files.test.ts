// Files for translators in real Chromium: download a language as PO, import an edited copy after its
// preview, and a file that breaks a slot is refused with the unit named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startDashboard, type Dashboard } from './browser.ts';

describe('translation files in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard();
    const { client } = dashboard.harness;
    await client.patch('/api/project/settings', { settings: { languages: ['fr'] } });
    await client.post('/api/textnodes', {
      url: 'https://bakery.test/',
      keys: [{ key: 'Fresh bread' }, { key: 'Open 7 days a week' }],
    });
    await client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Fresh bread', value: 'Pain' }],
    });
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  it('downloads a language as PO, previews an edited copy and imports what it changes', async () => {
    const { page, errors } = await dashboard.signedIn({ at: '/backups' });
    const panel = page.getByRole('region', { name: 'Files for translators' });
    await panel.getByRole('combobox', { name: 'Format' }).click();
    await page.getByRole('option', { name: 'gettext PO' }).click();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Download file' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('translations-fr.po');
    const po = (await (await file.createReadStream()).toArray()).join('');
    expect(po).toContain('msgid "Fresh bread"\nmsgstr "Pain"');

    const edited = po
      .replace('msgstr "Pain"', 'msgstr "Pain frais"')
      .replace(
        'msgid "Open {{number:0}} days a week"\nmsgstr ""',
        'msgid "Open {{number:0}} days a week"\nmsgstr "Ouvert {{number:0}} jours sur 7"',
      );
    await panel
      .locator('input[type="file"]')
      .setInputFiles({ name: 'fr.po', mimeType: 'text/x-po', buffer: Buffer.from(edited) });
    await panel.getByRole('button', { name: 'Preview import' }).click();
    const preview = page.getByRole('region', { name: 'Import preview' });
    await preview.getByText('2 to import').waitFor();
    await expect(preview.getByRole('row', { name: 'Fresh bread Pain Pain frais' }).isVisible()).resolves.toBe(
      true,
    );
    await screenshot(page, 'translation-files-preview');
    // Nothing is written by the preview.
    const before = await dashboard.harness.client.get('/api/translations/all?lang=fr&search=Fresh');
    expect(before.body.rows[0].value).toBe('Pain');

    await preview.getByRole('button', { name: 'Import 2 translations' }).click();
    await page.getByText('2 translations imported').waitFor();
    await preview.waitFor({ state: 'detached' });
    const after = await dashboard.harness.client.get('/api/translations/all?lang=fr&limit=10');
    expect(
      Object.fromEntries(after.body.rows.map((row: { key: string; value: string }) => [row.key, row.value])),
    ).toEqual({
      'Fresh bread': 'Pain frais',
      'Open {{number:0}} days a week': 'Ouvert {{number:0}} jours sur 7',
    });
    expect(errors).toEqual([]);
  });

  it('refuses a file whose translation drops a slot, naming the phrase, and imports nothing', async () => {
    const { page } = await dashboard.signedIn({ at: '/backups' });
    const panel = page.getByRole('region', { name: 'Files for translators' });
    const csv =
      'source,target\r\nFresh bread,Du pain\r\nOpen {{number:0}} days a week,Ouvert tous les jours\r\n';
    await panel
      .locator('input[type="file"]')
      .setInputFiles({ name: 'fr.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await panel.getByRole('button', { name: 'Preview import' }).click();
    const alert = panel.getByRole('alert');
    await alert.getByText('Nothing was imported: these translations lose or add slots').waitFor();
    await alert
      .getByText('"Open {{number:0}} days a week": the translation must keep exactly the slots of the source')
      .waitFor();
    await screenshot(page, 'translation-files-slot-error');
    const rows = await dashboard.harness.client.get('/api/translations/all?lang=fr&search=Fresh');
    expect(rows.body.rows[0].value).toBe('Pain frais');
  });
});
