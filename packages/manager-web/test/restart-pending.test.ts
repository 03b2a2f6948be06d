// Browser tests (real Chromium, real manager on loopback): the edit form says before saving which
// changes need a restart and honours "Restart after saving"; changes saved without it wait, shown on
// the container's page, until a confirmed restart applies them.
import { describe, expect, it } from 'vitest';
import { userClient } from '@app/manager/testing';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { browserSuite, poll, screenshot, signedInPage } from './browser.ts';
import { addContainer, addDummyNode, addSite } from './fixtures.ts';

describe('manager web client: restarts', { timeout: 90_000 }, () => {
  const suite = browserSuite(FAST_JOBS);

  it('saves an environment change without restarting, then applies it with a confirmed restart', async () => {
    const { test, admin } = suite;
    const siteId = await addSite(admin, 'restarts');
    await addDummyNode(admin, siteId, 'sim-r');
    const rita = await userClient(test, admin, 'rita');
    const id = await addContainer(rita, siteId, 'envbox');
    const jobCount = async () =>
      ((await rita.get(`/sites/${siteId}/containers/${id}/jobs`)).body.data as unknown[]).length;
    const jobsBefore = await jobCount();

    const { context, page, seen } = await signedInPage(
      suite,
      'rita',
      `/sites/${siteId}/containers/${id}/edit`,
    );
    const advice = page.getByTestId('restart-after-saving');
    await page.getByText('Service changes take effect without a restart.').waitFor();
    await page.getByRole('button', { name: 'Add variable' }).click();
    const row = (await page.getByLabel(/^Name \d+$/).count()).toString();
    await page.getByLabel(`Name ${row}`).fill('MODE');
    await page.getByLabel(`Value ${row}`).fill('prod');
    await page.getByText(/take effect at the next restart/).waitFor();
    expect(await advice.isChecked()).toBe(false);
    await screenshot(page, 'container-edit-restart-advice');
    await page.getByRole('button', { name: 'Save changes' }).click();

    await page.waitForURL(new RegExp(`/sites/${siteId}/containers/${id}$`));
    const notice = page.getByTestId('restart-pending');
    await notice.getByText('Changes wait for a restart').waitFor();
    expect(await jobCount()).toBe(jobsBefore);
    expect((await rita.get(`/sites/${siteId}/containers/${id}`)).body.data.restartPending).toBe(true);
    await screenshot(page, 'container-restart-pending');

    // Cancel does nothing; confirming restarts and applies the change.
    await notice.getByRole('button', { name: 'Restart now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restart envbox' });
    await dialog.getByText(/The saved changes are applied/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await jobCount()).toBe(jobsBefore);

    await notice.getByRole('button', { name: 'Restart now' }).click();
    await dialog.getByRole('button', { name: 'Restart' }).click();
    await page.waitForURL(/\?job=\d+$/);
    await poll(() => page.getByTestId('job-log').getAttribute('data-status'), 30_000).toBe('success');
    await notice.waitFor({ state: 'detached' });
    const shown = (await rita.get(`/sites/${siteId}/containers/${id}`)).body.data;
    expect(shown.restartPending).toBe(false);
    expect(shown.environmentVars).toMatchObject({ MODE: 'prod' });
    expect(seen.errors).toEqual([]);
    await context.close();
  });
});
