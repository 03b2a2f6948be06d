// Browser tests (real Chromium, real manager on loopback sampling its dummy node every second): the
// usage graphs of a node and a container with their latest values, hover values and time ranges, and
// a site's top consumers sorted by the server.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { browserSuite, poll, screenshot, signedInPage } from './browser.ts';
import { addContainer, addDummyNode, addSite } from './fixtures.ts';

const GiB = 1024 ** 3;

describe('manager web client: metrics graphs and top consumers', { timeout: 90_000 }, () => {
  const suite = browserSuite({ ...FAST_JOBS, METRICS_INTERVAL_S: '1' });
  const ids = { site: 0, node: 0, small: 0, big: 0 };

  /** A site with a dummy node running two containers, the `small` one with a 4 GiB root disk, sampled a few times. */
  const seed = async () => {
    if (ids.site) return;
    const { admin, test } = suite;
    ids.site = await addSite(admin, 'metrics');
    ids.node = await addDummyNode(admin, ids.site, 'sim-m');
    ids.small = await addContainer(admin, ids.site, 'small');
    ids.big = await addContainer(admin, ids.site, 'big');
    const db = test.manager.database.db;
    const small = db.selectFrom('dummy_instances').where('hostname', '=', 'small');
    const { config } = await small.select('config').executeTakeFirstOrThrow();
    const changed = JSON.parse(config) as { resources: Record<string, number> };
    changed.resources.rootfsGb = 4;
    await db
      .updateTable('dummy_instances')
      .set({ config: JSON.stringify(changed) })
      .where('hostname', '=', 'small')
      .execute();
    const smallSamples = async () =>
      (
        await admin.get(`/sites/${ids.site}/containers/${ids.small}/metrics?range=1h`)
      ).body.data.points.filter((p: { diskBytes: number | null }) => p.diskBytes === GiB).length;
    await poll(smallSamples, 20_000).toBeGreaterThanOrEqual(2);
  };

  const graph = (page: Page) => page.getByTestId('metrics');
  const latest = (page: Page, chart: string) =>
    graph(page).locator(`[data-chart="${chart}"]`).getByTestId('latest').textContent();
  const rangeShown = (page: Page) => graph(page).getByTestId('metrics-range').getAttribute('data-range');

  it("shows a node's usage over a range with its latest values, hover values, and switches ranges", async () => {
    await seed();
    const { context, page, seen } = await signedInPage(
      suite,
      'admin',
      `/sites/${ids.site}/nodes/${ids.node}`,
    );
    await poll(() => rangeShown(page)).toBe('24h');
    expect(await graph(page).getByTestId('metrics-range').textContent()).toMatch(
      /^\d+ points over the last 24h, one every 60 s; latest at /,
    );
    // The node: a base load plus its two containers (the dummy's figures), each traffic 2000/1000 B/s.
    expect(await latest(page, 'CPU')).toMatch(/^\d+(\.\d)? % \(\d+(\.\d+)? CPUs\)$/);
    expect(await latest(page, 'Memory')).toMatch(/^\d+(\.\d)? % \(\d+(\.\d)? GiB\)$/);
    expect(await latest(page, 'Network')).toBe('in 3.9 KiB/s, out 2.0 KiB/s');

    // Hovering the CPU chart shows the value at that moment.
    const cpu = graph(page).locator('[data-chart="CPU"] .recharts-wrapper');
    await cpu.scrollIntoViewIfNeeded();
    const box = (await cpu.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 2 + 5, box.y + box.height / 2, { steps: 5 });
    const tooltip = graph(page).locator('[data-chart="CPU"] .recharts-tooltip-wrapper');
    await poll(() => tooltip.textContent()).toMatch(/CPU ?: ?\d+(\.\d)? %/);
    await screenshot(page, 'node-metrics');

    const ranges = graph(page).getByRole('radiogroup', { name: 'Time range' });
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/api/v1/sites/${ids.site}/nodes/${ids.node}/metrics`)
        asked.push(url.searchParams.get('range')!);
    });
    await ranges.getByText('1h', { exact: true }).click();
    await poll(() => rangeShown(page)).toBe('1h');
    // Hourly averages exist only once a whole hour has been sampled: none yet.
    await ranges.getByText('7d', { exact: true }).click();
    await graph(page).getByText('No samples yet').waitFor();
    expect(await graph(page).textContent()).toContain('hourly averages (one point every 3600 s)');
    expect(asked).toEqual(['1h', '7d']);
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it("shows a container's usage: its own disk and traffic", async () => {
    await seed();
    const { context, page, seen } = await signedInPage(
      suite,
      'admin',
      `/sites/${ids.site}/containers/${ids.small}`,
    );
    await poll(() => rangeShown(page)).toBe('24h');
    expect(await latest(page, 'Disk')).toBe('25 % (1.0 GiB)');
    expect(await latest(page, 'Network')).toMatch(/^in 2\.0 KiB\/s, out (99\d|100\d) B\/s$/);
    await screenshot(page, 'container-metrics');
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it("lists a site's top consumers, sorted by the server by the column clicked, linked to the containers", async () => {
    await seed();
    const { context, page, seen } = await signedInPage(suite, 'admin');
    const sorts: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/api/v1/sites/${ids.site}/metrics/top`) sorts.push(url.searchParams.get('sort')!);
    });
    await page.goto(`/sites/${ids.site}/nodes`);
    const table = page.getByTestId('top-consumers');
    const order = () => table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.container));
    await poll(order).toHaveLength(2);
    // Biggest CPU share first.
    const cpuShares = (await table.locator('tbody tr td:nth-child(3)').allTextContents()).map(parseFloat);
    expect(cpuShares[0]).toBeGreaterThanOrEqual(cpuShares[1]!);
    expect(await table.getByRole('columnheader', { name: /CPU/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );

    await table.getByRole('button', { name: 'Disk' }).click();
    await poll(() => sorts.at(-1)).toBe('disk');
    await poll(order).toEqual(['big', 'small']);
    const disk = table.getByRole('columnheader', { name: /Disk/ });
    expect(await disk.getAttribute('aria-sort')).toBe('descending');
    expect(await table.locator('tr[data-container="small"] td:nth-child(5)').textContent()).toBe(
      '25 % · 1.0 GiB',
    );
    await table.getByRole('button', { name: 'Disk' }).click();
    await poll(order).toEqual(['small', 'big']);
    expect(await disk.getAttribute('aria-sort')).toBe('ascending');
    await table.getByRole('button', { name: 'Last access' }).click();
    await poll(() => sorts.at(-1)).toBe('lastAccess');
    expect(await table.locator('tbody tr td:nth-child(7)').allTextContents()).toEqual(['never', 'never']);
    expect(sorts).toEqual(['cpu', 'disk', 'lastAccess']);
    await screenshot(page, 'top-consumers');

    await table.getByRole('link', { name: 'big', exact: true }).click();
    await page.waitForURL(`**/sites/${ids.site}/containers/${ids.big}`);
    await graph(page).waitFor();
    expect(seen.errors).toEqual([]);
    await context.close();
  });
});
