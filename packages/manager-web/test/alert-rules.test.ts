// Browser test (real Chromium, real manager on loopback) of the Alert rules page: an administrator
// creates a rule (a bad webhook URL answered at its field first), sees it listed, edits and deletes it;
// a rule scoped to one container names it from a searchable pick, at desktop and phone widths.
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE } from '@app/server-kit/testing/chromium';
import { browserSuite, newPage, readToast, screenshot, signedInPage, signIn } from './browser.ts';
import { addContainer, addDummyNode, addSite } from './fixtures.ts';

describe('manager web client: alert rules', { timeout: 90_000 }, () => {
  const suite = browserSuite();

  it('creates, lists, edits and deletes an alert rule', async () => {
    const { context, page, seen } = await signedInPage(suite, 'admin');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Alert rules' })
      .click();
    await page.getByTestId('empty-state').waitFor();
    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New alert rule' });
    await dialog.getByLabel(/^Name/).fill('Containers busy');
    await dialog.getByLabel(/^Threshold/).fill('85');
    await dialog.getByLabel(/^Webhook URL/).fill('ftp://hooks.example.test');
    await dialog.getByLabel(/^Webhook secret/).fill('a-webhook-secret-of-some-length');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('must be an http(s) URL').first().waitFor();
    expect(await dialog.getByLabel(/^Webhook URL/).getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel(/^Webhook URL/).fill('https://hooks.example.test/alerts');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await readToast(page, 'Alert rule saved');

    const table = page.getByTestId('alert-rules-table');
    const row = table.getByRole('row', { name: /Containers busy/ });
    await row.getByText('CPU (%) above 85 for 300 s').waitFor();
    await row.getByText('notification, webhook').waitFor();
    await screenshot(page, 'alert-rules');

    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Containers busy' });
    await edit.getByText('Stored; leave blank to keep it').waitFor();
    await edit.getByLabel(/^Name/).fill('Containers very busy');
    await edit.getByRole('button', { name: 'Save' }).click();
    await readToast(page, 'Alert rule saved');
    const edited = table.getByRole('row', { name: /Containers very busy/ });
    await edited.waitFor();
    const stored = (await suite.admin.get('/alert-rules')).body.data as Array<{ hasWebhookSecret: boolean }>;
    expect(stored.map((r) => r.hasWebhookSecret)).toEqual([true]);

    await edited.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await readToast(page, 'Alert rule deleted');
    await page.getByTestId('empty-state').waitFor();
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('scopes a rule to a container picked by name, refusing a name that matches none', async () => {
    const siteId = await addSite(suite.admin, 'lab');
    await addDummyNode(suite.admin, siteId, 'pve1');
    // db0 takes id 1, so a "web1" read as a number would name the wrong container.
    await addContainer(suite.admin, siteId, 'db0');
    const web1 = await addContainer(suite.admin, siteId, 'web1');
    for (const [viewport, name] of [
      [DESKTOP, 'web busy'],
      [PHONE, 'web busy on a phone'],
    ] as const) {
      const { context, page } = await newPage(suite.browser, suite.test.baseUrl, viewport);
      await signIn(page, 'admin', '/alert-rules');
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New alert rule' });
      await dialog.getByLabel(/^Name/).fill(name);
      await dialog.getByRole('combobox', { name: 'Scope' }).click();
      await page.getByRole('option', { name: /^One container/ }).click();
      const target = dialog.getByRole('combobox', { name: /^Container/ });
      await target.fill('nosuch');
      await dialog.getByLabel(/^Threshold/).click();
      await dialog.getByText('No container is named “nosuch”: choose one from the list').first().waitFor();
      expect(await target.getAttribute('aria-invalid')).toBe('true');
      await target.fill('web');
      await page.getByRole('option', { name: 'web1', exact: true }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await readToast(page, 'Alert rule saved');
      await page.getByTestId('alert-rules-table').getByText(name, { exact: true }).waitFor();
      await page.getByTestId('alert-rules-table').getByText('container web1').first().waitFor();
      await screenshot(page, `alert-rules-container-scope-${viewport.width}`);
      await context.close();
    }
    const stored = (await suite.admin.get('/alert-rules')).body.data as Array<{ scopeId: number | null }>;
    expect(stored.map((r) => r.scopeId)).toEqual([web1, web1]);
  });
});
