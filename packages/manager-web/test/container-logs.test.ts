// Browser test (real Chromium, real manager on loopback): a collaborator follows a container's log on
// its page, narrows it to stderr and searches it.
import { describe, expect, it } from 'vitest';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { browserSuite, poll, signedInPage } from './browser.ts';
import { sharedContainer } from './fixtures.ts';

describe('manager web client: container logs', { timeout: 90_000 }, () => {
  const suite = browserSuite(FAST_JOBS);

  it('follows the log as lines arrive, keeps one stream, and highlights a search', async () => {
    const { test, admin } = suite;
    const names = { site: 'logs', node: 'sim-l', owner: 'lena', collaborator: 'carl', hostname: 'logbox' };
    const { siteId, id } = await sharedContainer(test, admin, names);

    const { context, page, seen } = await signedInPage(suite, 'carl', `/sites/${siteId}/containers/${id}`);
    const panel = page.getByTestId('container-logs');
    const log = panel.getByRole('log', { name: 'Container log' });
    await log
      .getByText(/^GET \S+ 200 #\d+$/)
      .first()
      .waitFor();

    await panel.getByLabel('Follow').check();
    await poll(() => panel.getByTestId('follow-state').textContent()).toBe('live');
    const lineCount = () => log.locator('[data-stream]').count();
    const before = await lineCount();
    // The simulated instance prints a line a second: new ones are pushed while following.
    await poll(lineCount, 10_000).toBeGreaterThan(before + 1);

    await panel
      .getByRole('radiogroup', { name: 'Stream' })
      .locator('label', { hasText: /^stderr$/ })
      .click();
    // Both streams show stderr lines too: the switch is done once the stdout lines are gone.
    await poll(() => log.locator('[data-stream="stdout"]').count(), 15_000).toBe(0);
    await poll(() => log.locator('[data-stream="stderr"]').count(), 15_000).toBeGreaterThan(0);
    expect(await log.locator('[data-stream="stdout"]').count()).toBe(0);

    await panel.getByLabel('Search').fill('SLOW request');
    await log.locator('mark').first().waitFor();
    expect((await log.locator('mark').first().textContent())?.toLowerCase()).toBe('slow request');

    const download = panel.getByRole('link', { name: 'Download' });
    expect(await download.getAttribute('href')).toContain(`/containers/${id}/logs/download?stream=stderr`);
    expect(seen.errors).toEqual([]);
    await context.close();
  });
});
