// Restoring a backup from the dashboard in real Chromium: the preview lists what changes, and the
// restore brings the backup's translations back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seedApproved, startDashboard, type Dashboard } from './browser.ts';

describe('backup restore in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;
  let backup: string;

  beforeAll(async () => {
    dashboard = await startDashboard();
    await seedApproved(dashboard, ['fr'], ['Hello', 'Goodbye']);
    const { client } = dashboard.harness;
    await client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { key: 'Hello', value: 'Bonjour' },
        { key: 'Goodbye', value: 'Au revoir' },
      ],
    });
    backup = (await client.post('/api/backups')).body.filename;
    await client.post('/api/translations', { lang: 'fr', translations: [{ key: 'Hello', value: 'Salut' }] });
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  it('previews the changes of a backup, then restores it', async () => {
    const { page, errors } = await dashboard.signedIn({ at: '/backups' });
    await page.getByRole('button', { name: `Restore ${backup}` }).click();
    const dialog = page.getByRole('dialog', { name: `Restore ${backup}?` });
    const changes = dialog.getByRole('table', { name: 'Translations that change' });
    await changes.getByRole('cell', { name: 'Salut' }).waitFor();
    await expect(changes.getByRole('row').allTextContents()).resolves.toEqual([
      'PhraseLanguageNowAfter',
      'HellofrSalutBonjour',
    ]);
    await expect(dialog.getByTestId('restore-summary').textContent()).resolves.toContain('1 changed');
    await screenshot(page, 'backup-restore-preview');
    // The preview changed nothing.
    const before = await dashboard.harness.client.get('/api/translations?lang=fr');
    expect(before.body).toContainEqual({ key: 'Hello', context: '', value: 'Salut' });

    await dialog.getByRole('button', { name: 'Restore this backup' }).click();
    await page.getByText(`Restored from ${backup}`).waitFor();
    await dialog.waitFor({ state: 'detached' });
    const after = await dashboard.harness.client.get('/api/translations?lang=fr');
    expect(after.body).toContainEqual({ key: 'Hello', context: '', value: 'Bonjour' });
    expect(errors).toEqual([]);
  });
});
