// Browser test (real Chromium, real manager on loopback): the container page stops a running container
// (asked first) and starts it again, each job's output shown as it runs and the status following.
import { describe, expect, it } from 'vitest';
import { userClient } from '@app/manager/testing';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { browserSuite, poll, screenshot, signedInPage } from './browser.ts';
import { addContainer, addDummyNode, addSite } from './fixtures.ts';

describe('manager web client: start and stop', { timeout: 90_000 }, () => {
  const suite = browserSuite(FAST_JOBS);

  it('stops a container after asking, then starts it, with the job output and the status shown', async () => {
    const { test, admin } = suite;
    const siteId = await addSite(admin, 'power');
    await addDummyNode(admin, siteId, 'sim-p');
    const paula = await userClient(test, admin, 'paula');
    const id = await addContainer(paula, siteId, 'powerbox');
    const status = async () => (await paula.get(`/sites/${siteId}/containers/${id}`)).body.data.status;

    const { context, page, seen } = await signedInPage(suite, 'paula');
    await page.goto(`/sites/${siteId}/containers/${id}`);
    await page.getByTestId('container-hostname').waitFor();
    expect(await page.getByTestId('start').count()).toBe(0);

    // Cancel does nothing; confirming stops it.
    await page.getByTestId('stop').click();
    const dialog = page.getByRole('dialog', { name: 'Stop powerbox' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await status()).toBe('running');
    await page.getByTestId('stop').click();
    await dialog.getByRole('button', { name: 'Stop' }).click();
    await page.waitForURL(/\?job=\d+$/);
    const log = page.getByTestId('job-log');
    await poll(() => log.getAttribute('data-status'), 30_000).toBe('success');
    await log.getByText(/Stopping container \d+/).waitFor();
    await page.getByTestId('start').waitFor();
    expect(await page.getByTestId('stop').count()).toBe(0);
    expect(await status()).toBe('offline');
    await screenshot(page, 'container-stopped');

    await page.getByTestId('start').click();
    await log.getByText(/Starting container \d+/).waitFor();
    await poll(() => log.getAttribute('data-status'), 30_000).toBe('success');
    await page.getByTestId('stop').waitFor();
    expect(await status()).toBe('running');
    expect(seen.errors).toEqual([]);
    await context.close();
  });
});
