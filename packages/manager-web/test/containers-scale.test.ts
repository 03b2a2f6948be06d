// Browser test (real Chromium, real manager) of a site with 2,000 containers: the list filters by part
// of a hostname and by status, sorts, pages, keeps its view in the address across a reload, renders one
// page of rows at a time, acts on a selection with one confirmation and a result per container, and
// shows cards on a phone.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort } from '@app/server-kit/testing';
import { PHONE } from '@app/server-kit/testing/chromium';
import { insertContainers } from '@app/manager/testing/containers';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { browserSuite, newPage, poll, screenshot, signIn, signedInPage } from './browser.ts';
import { addContainer, addDummyNode, addSite } from './fixtures.ts';

const SEEDED = 2000;
const TOTAL = SEEDED + 2;

/** `app-0001`…: odd numbers on the dummy node (no instance there: missing), even ones on a node nobody answers (unknown). */
const hostname = (i: number) => `app-${String(i).padStart(4, '0')}`;

const count = (page: Page) => page.getByTestId('row-count').textContent();
const firstRow = (page: Page) => page.locator('tbody tr').first().getAttribute('data-container');

describe('manager web client: a list of 2,000 containers', { timeout: 180_000 }, () => {
  const suite = browserSuite(FAST_JOBS);
  let siteId: number;

  beforeAll(async () => {
    siteId = await addSite(suite.admin, 'big');
    const dummy = await addDummyNode(suite.admin, siteId, 'd1');
    // Created before the unreachable node exists, so both land on the dummy one.
    await addContainer(suite.admin, siteId, 'web-real1');
    await addContainer(suite.admin, siteId, 'web-real2');
    const gone = await suite.admin.post(`/sites/${siteId}/nodes`, {
      name: 'gone1',
      nodeType: 'engine',
      apiUrl: `http://127.0.0.1:${await freePort()}`,
    });
    const goneId = (gone.body.data as { id: number }).id;
    await insertContainers(
      suite.test,
      'admin',
      Array.from({ length: SEEDED }, (_, index) => ({
        hostname: hostname(index + 1),
        nodeId: (index + 1) % 2 ? dummy : goneId,
        containerId: `seeded-${index + 1}`,
      })),
    );
  });

  it('filters by part of a hostname and by status, sorts, pages, and keeps it all in the address', async () => {
    const { page, seen } = await signedInPage(suite, 'admin', `/sites/${siteId}/containers`);
    await poll(() => count(page)).toBe(`${TOTAL.toLocaleString('en')} of ${TOTAL.toLocaleString('en')}`);
    // One page of rows in the document, whatever the list's length: the page stays light.
    expect(await page.locator('tbody tr').count()).toBe(25);
    const hostnameHeader = page.getByRole('columnheader', { name: /Hostname/ });
    expect(await hostnameHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(await firstRow(page)).toBe('app-0001');

    await page.getByLabel('Hostname').fill('p-01');
    await poll(() => count(page)).toBe('100 of 2,002');
    await hostnameHeader.getByRole('button').click();
    await poll(() => hostnameHeader.getAttribute('aria-sort')).toBe('descending');
    expect(await firstRow(page)).toBe('app-0199');
    await page.getByRole('button', { name: 'next page' }).click();
    await poll(() => firstRow(page)).toBe('app-0174');

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'unknown' }).click();
    await poll(() => count(page)).toBe('50 of 2,002');
    await poll(() => page.locator('tbody [data-status="unknown"]').count()).toBe(25);

    // Sorting by another column leaves the hostname's header unsorted.
    await page.getByRole('columnheader', { name: /Node/ }).getByRole('button').click();
    await poll(() => hostnameHeader.getAttribute('aria-sort')).toBe('none');
    await screenshot(page, 'containers-filtered');

    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'p-01', status: 'unknown', sort: 'node' });
    await page.reload();
    await poll(() => count(page)).toBe('50 of 2,002');
    expect(await page.getByLabel('Hostname').inputValue()).toBe('p-01');
    expect(await page.getByRole('columnheader', { name: /Node/ }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    expect(seen.errors).toEqual([]);
  });

  it('restarts and deletes a selection after one confirmation naming the count, with a result per container', async () => {
    const { page, seen } = await signedInPage(suite, 'admin', `/sites/${siteId}/containers?q=web-real`);
    await poll(() => count(page)).toBe('2 of 2,002');
    await page.getByRole('checkbox', { name: 'Select the rows of this page' }).check();
    await poll(() => count(page)).toBe('2 of 2,002 · 2 selected');
    await page.getByRole('button', { name: 'Restart 2 containers' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('web-real1, web-real2');
    await dialog.getByRole('button', { name: 'Restart 2 containers' }).click();
    const results = dialog.getByTestId('bulk-results');
    await poll(() => results.locator('li[data-ok="true"]').count()).toBe(2);
    // The results' own Close button (the dialog's corner ✕ is named Close too, with no text).
    await dialog.getByRole('button', { name: 'Close' }).filter({ hasText: 'Close' }).click();

    // Nine seeded containers, half on a node nobody answers: each says what became of it.
    await page.getByLabel('Hostname').fill('app-000');
    await poll(() => count(page)).toBe('9 of 2,002');
    await page.getByRole('checkbox', { name: 'Select the rows of this page' }).check();
    await page.getByRole('button', { name: 'Delete 9 containers' }).click();
    await dialog.getByRole('button', { name: 'Delete 9 containers' }).click();
    await poll(() => results.locator('li').count(), 60_000).toBe(9);
    const deleted = await results.locator('li[data-ok="true"]').count();
    expect(await results.locator('li[data-ok="false"]').count()).toBe(9 - deleted);
    // The results' own Close button (the dialog's corner ✕ is named Close too, with no text).
    await dialog.getByRole('button', { name: 'Close' }).filter({ hasText: 'Close' }).click();
    await poll(() => count(page)).toBe(`${9 - deleted} of ${(TOTAL - deleted).toLocaleString('en')}`);
    expect(seen.errors).toEqual([]);
  });

  it('shows each container as a card on a phone, its status beside it', async () => {
    const { page } = await newPage(suite.browser, suite.test.baseUrl, PHONE);
    await signIn(page, 'admin', `/sites/${siteId}/containers?q=web-real`);
    const card = page.locator('[data-container="web-real1"]');
    await card.waitFor();
    // A card: no column headers, each value labelled beside it.
    expect(await page.getByTestId('containers-table').locator('thead').count()).toBe(0);
    expect(await card.getByText('Status', { exact: true }).count()).toBe(1);
    await card.locator('[data-status="running"]').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await screenshot(page, 'containers-phone');
  });
});
