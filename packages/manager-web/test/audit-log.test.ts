// Browser test (real Chromium, real manager on loopback): an administrator filters the audit log to
// one user's actions; a user reads their own activity; targets read by name.
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE } from '@app/server-kit/testing/chromium';
import { userClient } from '@app/manager/testing';
import { browserSuite, newPage, poll, screenshot, signedInPage, signIn } from './browser.ts';
import { addContainer, addDummyNode, addSite } from './fixtures.ts';

describe('manager web client: audit log', { timeout: 90_000 }, () => {
  const suite = browserSuite();

  it("filters the audit log to one user's actions, and shows a user their own", async () => {
    const alice = await userClient(suite.test, suite.admin, 'alice');
    expect((await alice.post('/apikeys', { description: 'ci' })).status).toBe(201);
    await addSite(suite.admin, 'North');

    const { context, page, seen } = await signedInPage(suite, 'admin');
    await page.getByRole('link', { name: 'Audit log' }).click();
    const table = page.getByTestId('audit-table');
    await table.locator('tr[data-action="site.create"]').waitFor();
    await page.getByRole('combobox', { name: 'User' }).click();
    await page.getByRole('option', { name: 'alice', exact: true }).click();
    // The entries stay on screen while the filtered ones load; then only alice's are left.
    const actors = () =>
      table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-actor')));
    await poll(async () => [...new Set(await actors())]).toEqual(['alice']);
    await table.locator('tr[data-action="apikey.create"]').waitFor();
    expect(page.url()).toMatch(/[?&]user=\d+/);
    const csv = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(csv).toMatch(/^\/api\/v1\/audit-events\.csv\?user=\d+$/);
    await screenshot(page, 'audit-log-filtered');
    expect(seen.errors).toEqual([]);
    await context.close();

    const own = await signedInPage(suite, 'alice');
    await own.page.getByRole('link', { name: 'My activity' }).click();
    await own.page.getByTestId('activity-table').locator('tr[data-action="apikey.create"]').waitFor();
    expect(own.seen.errors).toEqual([]);
    await own.context.close();
  });

  it('names the targets of entries: users, sites, containers, nodes, groups, domains and alert rules, at both widths', async () => {
    const siteId = await addSite(suite.admin, 'South');
    await addDummyNode(suite.admin, siteId, 'pve-south');
    await addContainer(suite.admin, siteId, 'web1');
    const { admin } = suite;
    expect((await admin.post('/groups', { cn: 'operators', isAdmin: false })).status).toBe(201);
    expect((await admin.post('/external-domains', { name: 'apps.example.test', siteId })).status).toBe(201);
    const rule = { name: 'CPU hot', metric: 'cpuPercent', comparison: 'above', threshold: 90 };
    const created = await admin.post('/alert-rules', {
      ...rule,
      durationSeconds: 60,
      scope: 'nodes',
      email: true,
    });
    expect(created.status, created.text).toBe(201);
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await newPage(suite.browser, suite.test.baseUrl, viewport);
      await signIn(page, 'admin', '/audit-log');
      const entry = (action: string) => page.getByTestId('audit-table').locator(`[data-action="${action}"]`);
      await entry('user.create').getByText('user alice', { exact: true }).waitFor();
      await entry('site.create').getByText('site South', { exact: true }).waitFor();
      await entry('container.create').getByText('container web1', { exact: true }).waitFor();
      await entry('node.create').getByText('node pve-south', { exact: true }).waitFor();
      await entry('group.create').getByText('group operators', { exact: true }).waitFor();
      await entry('external_domain.create')
        .getByText('external domain apps.example.test', { exact: true })
        .waitFor();
      await entry('alert_rule.create').getByText('alert rule CPU hot', { exact: true }).waitFor();
      await screenshot(page, `audit-log-target-names-${viewport.width}`);
      await context.close();
    }
  });
});
