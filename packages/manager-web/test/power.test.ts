// Browser tests (real Chromium, real manager on loopback): the container page stops a running container
// (asked first) and starts it again, each job's output shown as it runs and the status following; the
// terminal of a stopped container says it is stopped and offers Start, on the container page and on the
// terminal page opened directly.
import { describe, expect, it } from 'vitest';
import { userClient } from '@app/manager/testing';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { jobEnds } from '@app/manager/testing/containers';
import { browserSuite, newPage, poll, screenshot, signedInPage, signIn, watch } from './browser.ts';
import { addContainer, addDummyNode, addSite, sharedContainer } from './fixtures.ts';

describe('manager web client: start and stop', { timeout: 90_000 }, () => {
  const suite = browserSuite(FAST_JOBS);

  it('stops a container after asking, then starts it, with the job output and the status shown', async () => {
    const { test, admin } = suite;
    const siteId = await addSite(admin, 'power');
    await addDummyNode(admin, siteId, 'sim-p');
    const paula = await userClient(test, admin, 'paula');
    const id = await addContainer(paula, siteId, 'powerbox');
    const status = async () => (await paula.get(`/sites/${siteId}/containers/${id}`)).body.data.status;

    const { context, page, seen } = await signedInPage(suite, 'paula', `/sites/${siteId}/containers/${id}`);
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

  it('says a stopped container has no terminal and offers Start, on its page and on the terminal page', async () => {
    const { test, admin } = suite;
    const names = { site: 'halted', node: 'sim-h', owner: 'tom', collaborator: 'tina', hostname: 'haltbox' };
    const { siteId, id, owner: tom } = await sharedContainer(test, admin, names);
    const stop = async () => {
      const queued = await tom.post(`/sites/${siteId}/containers/${id}/stop`);
      expect(await jobEnds(tom, queued.body.data.jobId)).toBe('success');
    };
    const stoppedText = 'haltbox is stopped: a terminal needs it running.';

    for (const [viewport, suffix] of [
      [{ width: 1280, height: 860 }, ''],
      [{ width: 390, height: 844 }, '-phone'],
    ] as const) {
      await stop();
      const { context, page } = await newPage(suite.browser, test.baseUrl, viewport);
      const seen = watch(page);
      await signIn(page, 'tom', `/sites/${siteId}/containers/${id}`);
      await page.getByTestId('start').waitFor();
      await page.getByRole('button', { name: 'Terminal' }).click();
      const notice = page.getByTestId('terminal-stopped');
      await notice.getByText(stoppedText).waitFor();
      await screenshot(page, `terminal-stopped-popover${suffix}`);
      await notice.getByTestId('terminal-start').click();
      await poll(() => page.getByTestId('job-log').getAttribute('data-status'), 30_000).toBe('success');
      await page.getByRole('link', { name: 'Terminal' }).waitFor();

      // Opened directly, the terminal page says the same instead of the node's refusal.
      await stop();
      await page.goto(`/sites/${siteId}/containers/${id}/terminal`);
      await notice.getByText(stoppedText).waitFor();
      expect(await page.getByText(/not running|Reconnect to open/).count()).toBe(0);
      expect(await page.getByTestId('terminal-state').textContent()).toBe('stopped');
      await screenshot(page, `terminal-page-stopped${suffix}`);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await notice.getByTestId('terminal-start').click();
      await poll(() => page.getByTestId('terminal-state').textContent(), 30_000).toBe('open');
      expect(seen.errors).toEqual([]);
      await context.close();
    }

    // A collaborator, who may not start it, is told whom to ask.
    await stop();
    const asTina = await signedInPage(suite, 'tina');
    await asTina.page.goto(`/sites/${siteId}/containers/${id}/terminal`);
    await asTina.page.getByText(`${stoppedText} Ask tom to start it.`).waitFor();
    expect(await asTina.page.getByTestId('terminal-start').count()).toBe(0);
    await asTina.context.close();
  });
});
