// Browser test (real Chromium, real manager on loopback) of the onboarding walk an administrator sees
// while the fleet has no container: site → node → first container, each step done as the API says,
// each linking to its form, gone once a container exists or once dismissed — at desktop and phone size.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { accessibilityViolations } from '@app/server-kit/testing/axe';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { userClient } from '@app/manager/testing';
import { browserSuite, newPage, screenshot, signIn } from './browser.ts';
import { addContainer, addDummyNode, addSite } from './fixtures.ts';

const PHONE = { width: 390, height: 844 };

const walk = (page: Page) => page.getByRole('region', { name: 'Get started' });
const step = (page: Page, name: string) => walk(page).getByRole('listitem').filter({ hasText: name });

async function stepStates(page: Page): Promise<string[]> {
  await walk(page).waitFor();
  return walk(page)
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-step-state') ?? ''));
}

describe('manager web client: onboarding walk', { timeout: 60_000 }, () => {
  const suite = browserSuite(FAST_JOBS);

  it('walks site → node → first container, linking to each form, and leaves once a container exists', async () => {
    const { admin, browser, test } = suite;
    const desktop = await newPage(browser, test.baseUrl);
    const phone = await newPage(browser, test.baseUrl, PHONE);
    await Promise.all([signIn(desktop.page, 'admin'), signIn(phone.page, 'admin')]);

    for (const { page } of [desktop, phone]) {
      expect(await stepStates(page)).toEqual(['todo', 'todo', 'todo']);
      expect(await step(page, 'Create a site').getByRole('link').getAttribute('href')).toBe('/sites');
    }
    await screenshot(phone.page, 'onboarding-empty-phone');
    expect(await accessibilityViolations(phone.page)).toEqual([]);

    const siteId = await addSite(admin, 'lab');
    const { page } = desktop;
    await page.goto('/containers');
    await page.waitForURL(`**/sites/${siteId}/containers`);
    expect(await stepStates(page)).toEqual(['done', 'todo', 'todo']);
    await step(page, 'Add a node').getByRole('link', { name: 'Add a node' }).click();
    await page.waitForURL(`**/sites/${siteId}/nodes/new`);

    await addDummyNode(admin, siteId, 'sim1');
    await page.goto('/containers');
    expect(await stepStates(page)).toEqual(['done', 'done', 'todo']);
    await step(page, 'Create your first container').getByRole('link').click();
    await page.waitForURL(`**/sites/${siteId}/containers/new`);
    await page.goBack();
    await walk(page).waitFor();
    await screenshot(page, 'onboarding-two-done');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Dismissed on the phone: gone there after a reload, still shown on the desktop's own browser.
    await phone.page.goto('/containers');
    await step(phone.page, 'Add a node').waitFor();
    await walk(phone.page).getByRole('button', { name: 'Dismiss' }).click();
    await walk(phone.page).waitFor({ state: 'detached' });
    await phone.page.reload();
    await phone.page.getByRole('heading', { name: /^Containers/ }).waitFor();
    expect(await walk(phone.page).count()).toBe(0);
    expect(await stepStates(page)).toEqual(['done', 'done', 'todo']);

    // Not for other users: the same empty site shows them its empty list only.
    await userClient(test, admin, 'alice');
    const user = await newPage(browser, test.baseUrl);
    await signIn(user.page, 'alice');
    await user.page.getByText('No containers yet').waitFor();
    expect(await walk(user.page).count()).toBe(0);
    await user.context.close();

    await addContainer(admin, siteId, 'web1');
    await page.reload();
    await page.locator('tr[data-container="web1"]').waitFor();
    expect(await walk(page).count()).toBe(0);
    await Promise.all([desktop.context.close(), phone.context.close()]);
  });
});
