// Browser tests (real Chromium, real manager on loopback) of the Agents page: an administrator creates
// a site's agent token (shown once), sees it listed, and revokes it; the token works until then. An
// agent's word on why its last apply failed is shown beside it.
import { describe, expect, it } from 'vitest';
import { TestClient } from '@app/server-kit/testing';
import { checkin } from '@app/manager/testing/fleet';
import { browserSuite, readToast, screenshot, signedInPage } from './browser.ts';
import { addSite } from './fixtures.ts';

describe('manager web client: agent tokens and apply failures', { timeout: 90_000 }, () => {
  const suite = browserSuite();

  it('creates a site agent token shown once, lists it, and revokes it', async () => {
    await addSite(suite.admin, 'lab');
    const siteId = await addSite(suite.admin, 'edge');
    const { context, page, seen } = await signedInPage(suite, 'admin');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Agents' })
      .click();
    const section = page.getByTestId('agent-tokens');
    await section.getByLabel('Site', { exact: true }).click();
    await page.getByRole('option', { name: 'edge' }).click();
    await section.getByRole('heading', { name: 'Agent tokens of edge' }).waitFor();
    await section.getByTestId('empty-state').waitFor();
    await section.getByLabel('Description').fill('gateway gw-edge');
    await section.getByRole('button', { name: 'Create token' }).click();

    const dialog = page.getByRole('dialog', { name: 'New agent token for edge' });
    await dialog.getByText('will not be shown again').waitFor();
    const token = (await dialog.getByTestId('new-key').textContent())!.trim();
    expect(token).toMatch(/^cma_/);
    await screenshot(page, 'agent-token-created');
    await dialog.getByRole('button', { name: 'Done' }).click();

    const row = section.getByTestId('agent-tokens-table').getByRole('row', { name: /gateway gw-edge/ });
    await row.waitFor();
    expect(await page.getByText(token).count()).toBe(0);
    expect(await row.getByRole('cell').nth(1).textContent()).toBe(`${token.slice(0, 12)}…`);

    // The token is the agent's credential, seen from another host (through a proxy that says so).
    const agent = new TestClient(`${suite.test.baseUrl}/api/v1`);
    agent.defaultHeaders.authorization = `Bearer ${token}`;
    agent.defaultHeaders['x-forwarded-for'] = '203.0.113.5';
    expect((await agent.post('/agents', checkin(siteId))).status).toBe(200);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke agent token' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await readToast(page, 'Agent token revoked');
    await row.waitFor({ state: 'detached' });
    expect((await agent.post('/agents', checkin(siteId))).status).toBe(401);
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('shows why an agent refused or failed its last apply', async () => {
    const siteId = await addSite(suite.admin, 'north');
    const message =
      'refused the snapshot: proxy.httpServices[0].authServer "http://x/;}" is not an auth server URL';
    const reported = await suite.test.client().post(
      '/agents',
      checkin(siteId, {
        hostname: 'gw-north',
        services: {
          nginx: { state: 'active', lastApply: 'failure', message },
          dnsmasq: { state: 'active', lastApply: 'success' },
        },
      }),
    );
    expect(reported.status).toBe(200);
    const { context, page, seen } = await signedInPage(suite, 'admin', '/agents');
    const row = page.getByTestId('agents-table').getByRole('row', { name: /gw-north/ });
    await row.getByTestId('apply-message').getByText(`nginx: ${message}`).waitFor();
    await screenshot(page, 'agents-apply-refused');
    expect(seen.errors).toEqual([]);
    await context.close();
  });
});
