// Browser tests (real Chromium, real manager on loopback): what waits for someone is shown to them —
// administrators see a badge for accounts waiting for approval and a notice leading to Users; a user
// told that a container was shared with them reaches it from the notice.
import { describe, expect, it } from 'vitest';
import { userClient } from '@app/manager/testing';
import { browserSuite, screenshot, signedInPage } from './browser.ts';
import { addContainer, addDummyNode, addSite } from './fixtures.ts';

describe('manager web client: what waits for you', { timeout: 90_000 }, () => {
  const suite = browserSuite();

  it('shows administrators a badge and a notice for an account waiting for approval', async () => {
    const registered = await suite.test.client().register({ uid: 'waiting' });
    expect(registered.body.data.status).toBe('pending');
    const { context, page, seen } = await signedInPage(suite, 'admin');

    const users = page.getByRole('link', { name: /^Users/ });
    await users.getByLabel('1 waiting for approval').waitFor();
    await page.getByRole('link', { name: /^Notifications/ }).click();
    const notice = page.getByTestId('notifications').getByText(/waiting registered and waits for approval/);
    await notice.waitFor();
    await screenshot(page, 'notice-registration-waiting');
    await page.getByRole('link', { name: 'Open Users' }).click();
    await page.locator('tr[data-user="waiting"]').waitFor();
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('tells a user a container was shared with them and links to it', async () => {
    const siteId = await addSite(suite.admin, 'shared');
    await addDummyNode(suite.admin, siteId, 'sim-shared');
    const owner = await userClient(suite.test, suite.admin, 'owen');
    await userClient(suite.test, suite.admin, 'cora');
    const containerId = await addContainer(owner, siteId, 'sharedbox', { collaborators: ['cora'] });

    const { context, page, seen } = await signedInPage(suite, 'cora');
    await page
      .getByRole('link', { name: /^Notifications/ })
      .getByLabel('1 unread')
      .waitFor();
    await page.getByRole('link', { name: /^Notifications/ }).click();
    await page.getByText('owen shared sharedbox with you.').waitFor();
    await page.getByRole('link', { name: 'Open container' }).click();
    await page.waitForURL(`**/sites/${siteId}/containers/${containerId}`);
    await page.getByRole('heading', { name: /sharedbox/ }).waitFor();
    expect(seen.errors).toEqual([]);
    await context.close();
  });
});
