// Browser tests (real Chromium, real manager on loopback, a dummy node): the owner opens the terminal
// from the container page, runs a command, sees why it closed, and reconnects; a collaborator has no
// Terminal button. The owner runs a command without a terminal, its output live and its exit code
// shown; a collaborator has no such control.
import { describe, expect, it } from 'vitest';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { browserSuite, newPage, poll, screenshot, signedInPage, signIn, watch } from './browser.ts';
import { sharedContainer } from './fixtures.ts';

describe('manager web client: container terminal', { timeout: 90_000 }, () => {
  const suite = browserSuite(FAST_JOBS);

  it('opens a shell from the container page, runs a command, reconnects after exit', async () => {
    const { test, admin } = suite;
    const names = {
      site: 'shells',
      node: 'sim-t',
      owner: 'tess',
      collaborator: 'carl',
      hostname: 'shellbox',
    };
    const { siteId, id } = await sharedContainer(test, admin, names);

    const { context, page, seen } = await signedInPage(suite, 'tess', `/sites/${siteId}/containers/${id}`);
    await page.getByRole('link', { name: 'Terminal' }).click();
    await page.waitForURL(new RegExp(`/sites/${siteId}/containers/${id}/terminal$`));
    const state = page.getByTestId('terminal-state');
    await poll(() => state.textContent()).toBe('open');
    const screen = page.locator('.xterm-rows');
    await poll(() => screen.innerText()).toMatch(/# /);
    await page.keyboard.type('echo $((6*7))');
    await page.keyboard.press('Enter');
    await poll(() => screen.innerText()).toMatch(/\n42\n/);
    await screenshot(page, 'container-terminal');

    await page.keyboard.type('exit');
    await page.keyboard.press('Enter');
    await page
      .getByTestId('terminal-closed')
      .getByText(/the shell exited/)
      .waitFor();
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await poll(() => state.textContent()).toBe('open');
    expect(seen.errors).toEqual([]);
    await context.close();

    const asCarl = await signedInPage(suite, 'carl');
    await asCarl.page.goto(`/sites/${siteId}/containers/${id}`);
    await asCarl.page.getByTestId('read-only').waitFor();
    expect(await asCarl.page.getByRole('link', { name: 'Terminal' }).count()).toBe(0);
    await asCarl.context.close();
  });

  it('runs a command from the container page, its output live and its exit code shown; not for collaborators', async () => {
    const { test, admin } = suite;
    const names = {
      site: 'commands',
      node: 'sim-c',
      owner: 'olga',
      collaborator: 'cole',
      hostname: 'cmdbox',
    };
    const { siteId, id } = await sharedContainer(test, admin, names);

    for (const viewport of [
      { width: 1280, height: 860 },
      { width: 390, height: 844 },
    ]) {
      const { context, page } = await newPage(suite.browser, test.baseUrl, viewport);
      const seen = watch(page);
      await signIn(page, 'olga', `/sites/${siteId}/containers/${id}`);
      const panel = page.getByTestId('run-command');
      await panel.getByLabel(/^Command/).fill('echo first; sleep 2; echo second; exit 3');
      await panel.getByLabel('Timeout (seconds)').fill('30');
      await panel.getByRole('button', { name: 'Run' }).click();
      const log = panel.getByTestId('job-log');
      // The first line is there while the command still runs.
      await log.getByText(/^first$/m).waitFor();
      expect(await log.getAttribute('data-status')).toBe('live');
      expect(await log.innerText()).not.toMatch(/^second$/m);
      await panel.getByTestId('exit-code').getByText('Exit code 3').waitFor();
      expect(await log.innerText()).toMatch(/^first\nsecond$/m);
      await screenshot(page, `container-run-command${viewport.width < 500 ? '-phone' : ''}`);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      expect(seen.errors).toEqual([]);
      await context.close();
    }

    const asCole = await signedInPage(suite, 'cole');
    await asCole.page.goto(`/sites/${siteId}/containers/${id}`);
    await asCole.page.getByTestId('read-only').waitFor();
    expect(await asCole.page.getByTestId('run-command').count()).toBe(0);
    expect(await asCole.page.getByText('Run a command').count()).toBe(0);
    await asCole.context.close();
  });
});
