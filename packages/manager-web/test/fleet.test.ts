// Browser tests (real Chromium, real manager on loopback) of running the fleet: a container owner
// restarts a container and watches the job; an administrator imports a Proxmox VE cluster (the
// Proxmox fake, logged in with a username and password) and reads the site agents' check-ins.
import { describe, expect, it } from 'vitest';
import { userClient } from '@app/manager/testing';
import { checkin, FAST_JOBS, startImportCluster } from '@app/manager/testing/fleet';
import { browserSuite, poll, screenshot, signedInPage } from './browser.ts';
import { addContainer, addDummyNode, addSite, adminKeyClient } from './fixtures.ts';

describe('manager web client: fleet operations', { timeout: 90_000 }, () => {
  const suite = browserSuite(FAST_JOBS);

  it('restarts a running container from its page: the job log runs to the end, and it runs again', async () => {
    const { test, admin } = suite;
    const siteId = await addSite(admin, 'lab');
    await addDummyNode(admin, siteId, 'sim1');
    const olga = await userClient(test, admin, 'olga');
    const id = await addContainer(olga, siteId, 'web1');

    const { context, page, seen } = await signedInPage(suite, 'olga', `/sites/${siteId}/containers`);
    await page.locator('tr[data-container="web1"]').getByRole('link', { name: 'web1', exact: true }).click();
    const title = page.getByRole('heading', { level: 2 });
    await title.locator('[data-status="running"]').waitFor();
    expect(await page.getByTestId('job-log').count()).toBe(0);

    // What the page reads of the container from the click on: it must read it again once the job ends.
    const reads: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (
        response.request().method() === 'GET' &&
        url.pathname === `/api/v1/sites/${siteId}/containers/${id}`
      )
        void response.json().then((body: { data: { status: string } }) => reads.push(body.data.status));
    });
    // While the job runs the header says so beside the last status read (the test nodes take
    // milliseconds, so the page records whether the mark ever appeared).
    await page.evaluate(`
      window.sawJobActive = false;
      new MutationObserver(() => {
        if (document.querySelector('h2 [data-testid="job-active"]')) window.sawJobActive = true;
      }).observe(document.body, { subtree: true, childList: true });
    `);
    await page.getByRole('button', { name: 'Restart', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Restart web1' });
    await confirm.getByText('Restart web1? Its services are unavailable for a moment.').waitFor();
    await confirm.getByRole('button', { name: 'Restart' }).click();
    await page.waitForURL(new RegExp(`/sites/${siteId}/containers/${id}\\?job=\\d+$`));

    const jobId = Number(new URL(page.url()).searchParams.get('job'));
    const log = page.getByTestId('job-log');
    await log.getByText(`Job #${jobId}`).waitFor();
    await poll(() => log.getAttribute('data-status'), 30_000).toBe('success');
    await title.getByTestId('job-active').waitFor({ state: 'detached' });
    expect(await page.evaluate('window.sawJobActive')).toBe(true);
    await log.locator('[data-status="success"]').waitFor();
    const lines = (await log.locator('pre').textContent())!.split('\n');
    expect(lines[0]).toBe('Restarting web1.');
    expect(lines).toContainEqual(expect.stringMatching(/^Stopping container \d+$/));
    expect(lines).toContainEqual(expect.stringMatching(/^Starting container \d+$/));
    expect(lines.at(-1)).toBe('TASK OK');
    await poll(() => reads.at(-1)).toBe('running');
    await title.locator('[data-status="running"]').waitFor();
    await screenshot(page, 'container-restarted');

    // The server agrees: the owner's restart job succeeded and the container runs.
    expect((await olga.get(`/jobs/${jobId}`)).body.data).toMatchObject({
      status: 'success',
      createdBy: 'olga',
    });
    expect((await olga.get(`/sites/${siteId}/containers/${id}`)).body.data.status).toBe('running');
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('imports a Proxmox VE cluster: an unpinned self-signed certificate or a wrong password keeps the form, the right ones bring nodes and containers', async () => {
    const { admin } = suite;
    const cluster = await startImportCluster('pw-123456');
    try {
      const siteId = await addSite(admin, 'cluster');

      const { context, page, seen } = await signedInPage(suite, 'admin', `/sites/${siteId}/nodes`);
      await page.getByTestId('empty-state').waitFor();
      await page.getByRole('link', { name: 'Import cluster' }).click();
      await page.waitForURL(`**/sites/${siteId}/nodes/import`);
      const apiUrl = page.getByLabel(/^API URL/);
      const username = page.getByLabel(/^Username/);
      const password = page.getByLabel(/^Password/);
      await apiUrl.fill(cluster.url);
      await username.fill('root@pam');
      await password.fill('not-the-password');
      await page.getByRole('button', { name: 'Import', exact: true }).click();

      // The cluster's certificate is self-signed: without a pin nothing is sent.
      const failure = page.getByTestId('import-error');
      await failure.getByText(/certificate is not trusted/).waitFor();
      expect(cluster.requests).toEqual([]);

      // Pinned, the cluster refuses the login: the error stays in the form, and so does what was typed.
      await page.getByLabel(/^Certificate fingerprint/).fill(cluster.fingerprint.toLowerCase());
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await failure
        .getByText(/^Import from the hypervisor cluster failed: login as root@pam failed/)
        .waitFor();
      expect(await apiUrl.inputValue()).toBe(cluster.url);
      expect(await username.inputValue()).toBe('root@pam');
      expect(await password.inputValue()).toBe('not-the-password');
      await screenshot(page, 'node-import-failed');
      expect((await admin.get(`/sites/${siteId}/nodes`)).body.data).toEqual([]);

      await password.fill('pw-123456');
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const result = page.getByTestId('import-result');
      await result.getByText('2 nodes and 2 containers: alpha, beta.').waitFor();
      expect(await failure.count()).toBe(0);
      await screenshot(page, 'node-import-done');

      await result.getByRole('link', { name: 'Back to nodes' }).click();
      for (const name of ['alpha', 'beta']) {
        const row = page.locator(`tr[data-node="${name}"]`);
        await row.getByText('hypervisor').waitFor();
        await row.getByText(cluster.url).waitFor();
        expect(await row.getByText('no credentials').count(), name).toBe(0);
      }
      await screenshot(page, 'nodes-imported');

      // The adopted containers, with the state the cluster reports, read through the stored login.
      await page.goto(`/sites/${siteId}/containers`);
      const a = page.locator('tr[data-container="imported-a"]');
      const b = page.locator('tr[data-container="imported-b"]');
      await a.locator('[data-status="running"]').waitFor();
      await a.getByText('alpha').waitFor();
      await b.locator('[data-status="offline"]').waitFor();
      await b.getByText('beta').waitFor();
      await screenshot(page, 'containers-imported');
      expect(seen.errors).toEqual([]);
      await context.close();
    } finally {
      await cluster.stop();
    }
  });

  it("pins a node's certificate from the node form; a fingerprint that is not one is shown at its field", async () => {
    const { admin } = suite;
    const siteId = await addSite(admin, 'pinned');
    const { context, page, seen } = await signedInPage(suite, 'admin', `/sites/${siteId}/nodes/new`);
    await page.getByLabel(/^Name/).fill('pve-pinned');
    await page.getByLabel(/^API URL/).fill('https://127.0.0.1:1');
    const fingerprint = page.getByLabel(/^Certificate fingerprint/);
    await fingerprint.fill('AB:CD');
    await page.getByRole('button', { name: 'Save node' }).click();
    await page.getByText(/^must be the certificate's SHA-256 fingerprint/).waitFor();
    const pin = Array.from({ length: 32 }, (_, index) => index.toString(16).padStart(2, '0')).join(':');
    await fingerprint.fill(pin);
    await page.getByRole('button', { name: 'Save node' }).click();
    // Nothing listens on port 1: the form says so and saves only when asked again.
    await page.getByTestId('node-test-result').getByText('The node cannot be reached').waitFor();
    await page.getByRole('button', { name: 'Save anyway' }).click();
    await page.waitForURL(new RegExp(`/sites/${siteId}/nodes/\\d+$`));
    await page.getByTestId('node-tls').getByText(`pinned ${pin.toUpperCase()}`).waitFor();
    const [node] = (await admin.get(`/sites/${siteId}/nodes`)).body.data as Array<{ tlsFingerprint: string }>;
    expect(node!.tlsFingerprint).toBe(pin.toUpperCase());
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it("sets a node's volume id shift from the node form; blank goes back to the node type's default", async () => {
    const { admin } = suite;
    const siteId = await addSite(admin, 'shifted');
    const { context, page, seen } = await signedInPage(suite, 'admin', `/sites/${siteId}/nodes/new`);
    await page.getByLabel(/^Name/).fill('pve-shifted');
    await page.getByLabel(/^Volume id shift/).fill('200000');
    await page.getByRole('button', { name: 'Save node' }).click();
    await page.getByRole('button', { name: 'Save anyway' }).click(); // no API URL: it cannot answer
    await page.waitForURL(new RegExp(`/sites/${siteId}/nodes/\\d+$`));
    const [node] = (await admin.get(`/sites/${siteId}/nodes`)).body.data as Array<{
      id: number;
      volumeIdShift: number | null;
    }>;
    expect(node!.volumeIdShift).toBe(200000);
    await page.goto(`/sites/${siteId}/nodes/${node!.id}/edit`);
    const shift = page.getByLabel(/^Volume id shift/);
    expect(await shift.inputValue()).toBe('200000');
    await shift.fill('');
    await page.getByRole('button', { name: 'Save node' }).click();
    await page.getByRole('button', { name: 'Save anyway' }).click();
    await page.waitForURL(new RegExp(`/sites/${siteId}/nodes/${node!.id}$`));
    expect((await admin.get(`/sites/${siteId}/nodes/${node!.id}`)).body.data.volumeIdShift).toBeNull();
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('lists the site agents that checked in, with their host and the time since their check-in', async () => {
    const { test, admin } = suite;
    const siteId = await addSite(admin, 'edge');
    const agent = await adminKeyClient(test, admin);
    const checkedIn = await agent.post(
      '/agents',
      checkin(siteId, {
        hostname: 'gw-edge',
        ipv4Address: '192.0.2.7',
        services: {
          nginx: { state: 'active', lastApply: 'success' },
          dnsmasq: { state: 'failed', lastApply: 'failure' },
        },
      }),
    );
    expect(checkedIn.status, checkedIn.text).toBe(200);
    expect(checkedIn.headers.get('etag')).toBeTruthy();
    // A second gateway, which sent only what an agent must, last heard from five minutes ago.
    expect((await agent.post('/agents', { siteId, hostname: 'gw-quiet' })).status).toBe(200);
    await test.manager.database.db
      .updateTable('agents')
      .set({ last_checkin_at: new Date(Date.now() - 300_000).toISOString() })
      .where('hostname', '=', 'gw-quiet')
      .execute();

    const { context, page, seen } = await signedInPage(suite, 'admin');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Agents' })
      .click();
    const table = page.getByTestId('agents-table');
    const fresh = table.getByRole('row', { name: /gw-edge/ });
    await fresh.waitFor();
    const cells = fresh.getByRole('cell');
    expect(await cells.allTextContents()).toEqual([
      'edge',
      'gw-edge',
      '192.0.2.7',
      expect.stringMatching(/^\d{1,2} s ago$/),
      'nginx: active · successdnsmasq: failed · failure',
    ]);
    expect(await fresh.getAttribute('data-stale')).toBe('false');
    // The exact time of the check-in is the tooltip of the cell's text.
    const [record] = (await admin.get('/agents')).body.data as Array<{ lastCheckinAt: string }>;
    expect(await cells.nth(3).locator('[title]').getAttribute('title')).toBe(
      new Date(record!.lastCheckinAt).toLocaleString('en-US', { timeZone: 'UTC' }),
    );

    const quiet = table.getByRole('row', { name: /gw-quiet/ });
    expect(await quiet.getAttribute('data-stale')).toBe('true');
    expect(await quiet.getByRole('cell').nth(3).textContent()).toBe('5 min agostale');
    expect(await quiet.getByRole('cell').nth(2).textContent()).toBe('—');
    await screenshot(page, 'agents-checked-in');
    expect(seen.errors).toEqual([]);
    await context.close();
  });
});
