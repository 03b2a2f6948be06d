// Browser test (real Chromium, real manager on loopback) of the overview: sites, nodes and containers by
// state over the whole fleet or one site (?site=), what needs attention first with a link to it, and a
// user's own containers only — at desktop and phone size.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { userClient } from '@app/manager/testing';
import { PHONE } from '@app/server-kit/testing/chromium';
import { browserSuite, newPage, screenshot, signIn } from './browser.ts';
import { addContainer, addDummyNode, addFailedContainer, addSite } from './fixtures.ts';

/** The figure a stat card shows, by its label. */
const stat = (page: Page, label: string) =>
  page.getByTestId('overview-stats').locator(`[data-stat="${label}"]`).getAttribute('data-value');

const attention = (page: Page) => page.getByRole('region', { name: 'Needs attention' });

describe('manager web client: overview', { timeout: 90_000 }, () => {
  const suite = browserSuite(FAST_JOBS);

  it('counts the fleet by state, lists failures first with their links, and narrows to one site', async () => {
    const { admin, browser, test } = suite;
    const labId = await addSite(admin, 'lab');
    await addDummyNode(admin, labId, 'sim1');
    await addContainer(admin, labId, 'web1');
    await addContainer(admin, labId, 'web2');
    const farId = await addSite(admin, 'far');
    const lost = await addFailedContainer(admin, farId, 'gone1', 'lost1');

    for (const viewport of [undefined, PHONE]) {
      const { context, page } = await newPage(browser, test.baseUrl, viewport);
      await signIn(page, 'admin', '/overview');
      await attention(page).getByRole('link', { name: 'lost1' }).waitFor();
      expect(
        await Promise.all(['Sites', 'Nodes', 'Containers', 'Running', 'Failed'].map((l) => stat(page, l))),
      ).toEqual(['2', '2', '3', '2', '1']);
      const row = attention(page).getByRole('row').filter({ hasText: 'lost1' });
      expect(await row.textContent()).toContain('far');
      expect(await row.locator('[data-status]').getAttribute('data-status')).toBe('failed');
      await screenshot(page, `overview-fleet${viewport ? '-phone' : ''}`);

      // One site: the address keeps the choice, the counts and the list follow it.
      await page.getByRole('combobox', { name: 'Site' }).click();
      await page.getByRole('option', { name: 'lab', exact: true }).click();
      await page.waitForURL(`**/overview?site=${labId}`);
      await expect.poll(() => stat(page, 'Containers')).toBe('2');
      expect(await stat(page, 'Failed')).toBe('0');
      await attention(page).getByText('Nothing needs attention').waitFor();
      await page.reload();
      await expect.poll(() => stat(page, 'Containers')).toBe('2');

      await page.goto('/overview');
      await attention(page).getByRole('link', { name: 'lost1' }).click();
      await page.waitForURL(`**/sites/${farId}/containers/${lost.containerId}`);
      await context.close();
    }

    // A user counts what they can see: their own containers.
    const alice = await userClient(test, admin, 'alice');
    await addContainer(alice, labId, 'mine1');
    const { context, page } = await newPage(browser, test.baseUrl);
    await signIn(page, 'alice', '/overview');
    await expect.poll(() => stat(page, 'Containers')).toBe('1');
    expect(await stat(page, 'Failed')).toBe('0');
    expect(await attention(page).getByRole('link').count()).toBe(0);
    await context.close();
  });
});
