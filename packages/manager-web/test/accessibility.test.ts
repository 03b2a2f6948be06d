// Accessibility in real Chromium: axe-core finds no serious or critical violation on any page of the
// manager's web client, at desktop and phone widths, signed in as an administrator over seeded data
// (containers running and failed, a pending account, a resource request, jobs, keys); the skip
// link is the first thing Tab reaches and "New container" follows in a few more.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  AUDIT_VIEWS,
  auditPage,
  closeDialog,
  openDialog,
  settled,
  trackRequests,
} from '@app/server-kit/testing/axe';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { userClient } from '@app/manager/testing';
import { browserSuite, newPage, packageDir, screenshot, signIn, watch } from './browser.ts';
import { addContainer, addDummyNode, addFailedContainer, addSite } from './fixtures.ts';

/**
 * Every route of src/routes.tsx with an address that shows it over the seeded data; `dialog` names a
 * button whose dialog is audited.
 */
type Pages = Array<{ route: string; url: string; shot?: string; dialog?: string }>;

const routesInRouter = () =>
  [...readFileSync(join(packageDir, 'src/routes.tsx'), 'utf8').matchAll(/path: '([^']+)'/g)].map((m) => m[1]);

/** Presses Tab until the focused element reads `name`; how many presses that took. */
async function tabsTo(page: Page, name: string): Promise<number> {
  for (let presses = 1; presses <= 40; presses++) {
    await page.keyboard.press('Tab');
    if ((await page.locator(':focus').textContent())?.trim() === name) return presses;
  }
  throw new Error(`40 Tabs did not reach ${name}`);
}

describe('manager web client: accessibility', { timeout: 300_000 }, () => {
  const suite = browserSuite(FAST_JOBS);
  let pages: Pages;

  beforeAll(async () => {
    const { admin, test } = suite;
    const siteId = await addSite(admin, 'lab');
    const nodeId = await addDummyNode(admin, siteId, 'sim1');
    const running = await addContainer(admin, siteId, 'web1');
    // A second site whose only node is an address nobody answers on: its container's create fails.
    const farId = await addSite(admin, 'far');
    const lost = await addFailedContainer(admin, farId, 'gone1', 'lost1');
    const { jobId } = lost;
    await userClient(test, admin, 'alice');
    expect((await test.client().register({ uid: 'waiting' })).status).toBe(201);
    const request = { siteId, hostname: 'web1', resourceType: 'memory', value: 4096 };
    expect((await admin.post('/resource-requests', request)).status).toBe(201);
    expect((await admin.post('/apikeys', { description: 'node tools' })).status).toBe(201);
    expect((await admin.post('/groups', { cn: 'operators', isAdmin: false })).status).toBe(201);
    expect((await admin.post('/external-domains', { name: 'apps.example.test', siteId })).status).toBe(201);

    pages = [
      { route: 'overview', url: '/overview', shot: 'overview' },
      { route: 'containers', url: '/containers' },
      { route: 'sites/:siteId/containers', url: `/sites/${siteId}/containers`, shot: 'containers' },
      { route: 'sites/:siteId/containers/new', url: `/sites/${siteId}/containers/new` },
      { route: 'sites/:siteId/containers/:id', url: `/sites/${siteId}/containers/${running}` },
      {
        route: 'sites/:siteId/containers/:id',
        url: `/sites/${siteId}/containers/${running}`,
        dialog: 'Stop',
      },
      {
        route: 'sites/:siteId/containers/:id',
        url: `/sites/${farId}/containers/${lost.containerId}`,
        shot: 'failed-container',
      },
      { route: 'sites/:siteId/containers/:id/edit', url: `/sites/${siteId}/containers/${running}/edit` },
      {
        route: 'sites/:siteId/containers/:id/terminal',
        url: `/sites/${siteId}/containers/${running}/terminal`,
      },
      { route: 'jobs/:id', url: `/jobs/${jobId}` },
      { route: 'apikeys', url: '/apikeys' },
      { route: 'activity', url: '/activity' },
      { route: 'notifications', url: '/notifications' },
      { route: 'resource-requests', url: '/resource-requests' },
      { route: 'sites', url: '/sites' },
      { route: 'nodes', url: '/nodes' },
      { route: 'sites/:siteId/nodes', url: `/sites/${siteId}/nodes` },
      { route: 'sites/:siteId/nodes/new', url: `/sites/${siteId}/nodes/new` },
      { route: 'sites/:siteId/nodes/import', url: `/sites/${siteId}/nodes/import` },
      { route: 'sites/:siteId/nodes/:id', url: `/sites/${siteId}/nodes/${nodeId}` },
      { route: 'sites/:siteId/nodes/:id/edit', url: `/sites/${siteId}/nodes/${nodeId}/edit` },
      { route: 'users', url: '/users', shot: 'users' },
      { route: 'users', url: '/users', dialog: 'New user' },
      { route: 'users', url: '/users', dialog: 'Invite' },
      { route: 'groups', url: '/groups' },
      { route: 'groups', url: '/groups', dialog: 'New group' },
      { route: 'external-domains', url: '/external-domains' },
      { route: 'alert-rules', url: '/alert-rules' },
      { route: 'agents', url: '/agents' },
      { route: 'settings', url: '/settings', shot: 'settings' },
      { route: 'audit-log', url: '/audit-log', shot: 'audit-log' },
      { route: '*', url: '/no-such-page' },
    ];
  }, 120_000);

  it('covers every route of the router', () => {
    const signedOut = ['/login', '/register', '/reset-password', '/reset-password/:token'];
    expect(new Set([...signedOut, ...pages.map((p) => p.route)])).toEqual(new Set(routesInRouter()));
  });

  it('reaches "New container" through the skip link in a few Tabs', async () => {
    const { context, page } = await newPage(suite.browser, suite.test.baseUrl);
    trackRequests(page);
    await signIn(page, 'admin');
    await settled(page);
    // Straight through the header and the navigation, as without the skip link.
    const straight = await tabsTo(page, 'New container');
    await page.reload();
    await settled(page);
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Skip to content');
    await page.getByRole('link', { name: 'Skip to content' }).waitFor();
    await page.keyboard.press('Enter');
    const skipping = 1 + (await tabsTo(page, 'New container'));
    expect(skipping).toBeLessThanOrEqual(4);
    expect(straight).toBeGreaterThan(skipping);
    await page.reload();
    await settled(page);
    await page.keyboard.press('Tab');
    await screenshot(page, 'a11y-skip-link');
    await context.close();
  });

  for (const { width, viewport, colorScheme, rules } of AUDIT_VIEWS) {
    it(`has no serious or critical violation on any page at ${width} width, ${colorScheme} scheme`, async () => {
      const { context, page } = await newPage(suite.browser, suite.test.baseUrl, viewport);
      await page.emulateMedia({ colorScheme });
      const seen = watch(page);
      const found: string[] = [];
      for (const url of ['/login', '/register', '/reset-password', '/reset-password/not-a-token'])
        found.push(...(await auditPage(page, url, { rules })));
      await signIn(page, 'admin');
      for (const { url, shot, dialog } of pages) {
        found.push(...(await auditPage(page, url, { rules, ...(dialog && { act: openDialog(dialog) }) })));
        if (dialog) await closeDialog(page);
        if (shot) await screenshot(page, `a11y-${shot}-${width}-${colorScheme}`);
      }
      expect(found.length, `axe-core found:\n${found.join('\n')}`).toBe(0);
      expect(seen.errors).toEqual([]);
      await context.close();
    });
  }
});
