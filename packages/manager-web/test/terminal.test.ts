// Browser test (real Chromium, real manager on loopback, a dummy node): the owner opens the terminal
// from the container page, runs a command, sees why it closed, and reconnects; a collaborator has no
// Terminal button.
import { describe, expect, it } from 'vitest';
import { userClient } from '@app/manager/testing';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { browserSuite, poll, screenshot, signedInPage } from './browser.ts';
import { addContainer, addDummyNode, addSite } from './fixtures.ts';

describe('manager web client: container terminal', { timeout: 90_000 }, () => {
  const suite = browserSuite(FAST_JOBS);

  it('opens a shell from the container page, runs a command, reconnects after exit', async () => {
    const { test, admin } = suite;
    const siteId = await addSite(admin, 'shells');
    await addDummyNode(admin, siteId, 'sim-t');
    const tess = await userClient(test, admin, 'tess');
    await userClient(test, admin, 'carl');
    const id = await addContainer(tess, siteId, 'shellbox');
    const shared = await tess.post(`/sites/${siteId}/containers/${id}/collaborators`, { username: 'carl' });
    expect(shared.status, shared.text).toBe(201);

    const { context, page, seen } = await signedInPage(suite, 'tess');
    await page.goto(`/sites/${siteId}/containers/${id}`);
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
});
