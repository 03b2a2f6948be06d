// Browser tests (real Chromium, real manager on loopback): a node that cannot be reached is not saved
// with a green "Node saved": the form says what the node answered and asks to save anyway; the list
// shows which nodes are online, and a node's page lists its containers.
import { describe, expect, it } from 'vitest';
import { freePort } from '@app/server-kit/testing';
import { browserSuite, screenshot, signedInPage } from './browser.ts';
import { addContainer, addDummyNode, addSite } from './fixtures.ts';

describe('manager web client: node connections', { timeout: 90_000 }, () => {
  const suite = browserSuite();

  it('tries an engine before saving it, says why it is unreachable, and saves only when asked again', async () => {
    const siteId = await addSite(suite.admin, 'nodes');
    await addDummyNode(suite.admin, siteId, 'sim-n');
    const { context, page, seen } = await signedInPage(suite, 'admin', `/sites/${siteId}/nodes/new`);
    await page.getByLabel(/^Name/).fill('engine1');
    await page.locator('input[data-path="nodeType"]').click();
    await page.getByRole('option', { name: /Container engine/ }).click();
    expect(await page.getByLabel('Network bridge').count()).toBe(0);
    await page.getByLabel(/^Engine host/).fill(`http://127.0.0.1:${await freePort()}`);

    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.getByTestId('node-test-result');
    await result.getByText('The node cannot be reached').waitFor();
    expect(await result.getAttribute('data-available')).toBe('false');

    await page.getByRole('button', { name: 'Save node' }).click();
    await page.getByRole('button', { name: 'Save anyway' }).waitFor();
    await screenshot(page, 'node-unreachable-save-anyway');
    const names = async () =>
      ((await suite.admin.get(`/sites/${siteId}/nodes`)).body.data as Array<{ name: string }>).map(
        (n) => n.name,
      );
    expect(await names()).toEqual(['sim-n']);
    await page.getByRole('button', { name: 'Save anyway' }).click();
    await page.waitForURL(new RegExp(`/sites/${siteId}/nodes/\\d+$`));
    expect((await names()).sort()).toEqual(['engine1', 'sim-n']);

    await page.goto(`/sites/${siteId}/nodes`);
    await page.locator('tr[data-node="engine1"] [data-online="false"]').waitFor();
    await page.locator('tr[data-node="sim-n"] [data-online="true"]').waitFor();
    await screenshot(page, 'nodes-online-state');
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it("lists a node's containers on its page", async () => {
    const siteId = await addSite(suite.admin, 'holding');
    const nodeId = await addDummyNode(suite.admin, siteId, 'sim-h');
    await addContainer(suite.admin, siteId, 'held1');
    const { context, page } = await signedInPage(suite, 'admin', `/sites/${siteId}/nodes/${nodeId}`);
    await page.getByTestId('node-containers').getByRole('link', { name: 'held1' }).click();
    await page.getByTestId('container-hostname').getByText('held1').waitFor();

    // The same refusal twice is one toast that counts, not two stacked over the page.
    await page.goto(`/sites/${siteId}/nodes`);
    const toasts = page.locator('.mantine-Notification-root').filter({ hasText: 'containers of this node' });
    for (const count of ['', ' (×2)']) {
      await page.locator('tr[data-node="sim-h"]').getByRole('button', { name: 'Delete' }).click();
      await page
        .getByRole('dialog', { name: 'Delete sim-h' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await toasts.filter({ hasText: `first.${count}` }).waitFor();
    }
    expect(await toasts.count()).toBe(1);
    await context.close();
  });
});
