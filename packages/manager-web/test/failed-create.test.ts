// Browser test (real Chromium, real manager on loopback) of a container whose create failed: its
// engine node is an address nobody answers on. The page says so in red with the end of the job's log,
// offers Retry and Delete, lists the container's jobs with links to their logs, and keeps Restart
// disabled with the reason.
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@app/server-kit/testing';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { jobEnds } from '@app/manager/testing/containers';
import { browserSuite, screenshot, signedInPage } from './browser.ts';
import { addSite } from './fixtures.ts';

describe('manager web client: a failed create', { timeout: 90_000 }, () => {
  const suite = browserSuite(FAST_JOBS);
  let siteId: number;

  beforeAll(async () => {
    siteId = await addSite(suite.admin, 'lab');
    const node = await suite.admin.post(`/sites/${siteId}/nodes`, {
      name: 'gone1',
      nodeType: 'engine',
      apiUrl: `http://127.0.0.1:${await freePort()}`,
    });
    expect(node.status, node.text).toBe(201);
  });

  it('shows the failure with its log, Retry and Delete, the job list, and Restart disabled', async () => {
    const created = await suite.admin.post(`/sites/${siteId}/containers`, {
      hostname: 'lost1',
      template: 'app:1',
    });
    expect(created.status, created.text).toBe(201);
    const { containerId, jobId } = created.body.data as { containerId: number; jobId: number };
    expect(await jobEnds(suite.admin, jobId)).toBe('failure');

    const { page, seen } = await signedInPage(suite, 'admin', `/sites/${siteId}/containers/${containerId}`);
    const failure = page.getByTestId('failed-create');
    await failure.waitFor();
    await expect.poll(() => page.locator('[data-status="failed"]').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('failed-log').textContent()).toMatch(/Error: /);
    // The job's page is told its container, to link back to it.
    expect(await failure.getByRole('link', { name: `Job #${jobId}` }).getAttribute('href')).toBe(
      `/jobs/${jobId}?site=${siteId}&container=${containerId}`,
    );
    expect(await page.getByTestId('restart').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Delete' }).waitFor();
    const jobs = page.getByTestId('container-jobs');
    expect(await jobs.getByRole('link', { name: `#${jobId}` }).count()).toBe(1);
    await screenshot(page, 'failed-create');

    // Retry makes a second create job, which fails the same way and joins the list.
    await failure.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => jobs.getByRole('link').count(), { timeout: 20_000 }).toBe(2);
    await page.getByTestId('failed-create').waitFor();

    // At phone width the jobs table fits its card: nothing to scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(() => jobs.evaluate((table) => table.scrollWidth <= table.parentElement!.clientWidth))
      .toBe(true);
    expect(seen.errors).toEqual([]);
  });
});
