// Browser test (real Chromium, real manager on loopback): after a failed image lookup, Create warns
// first and creates only when asked again.
import { describe, expect, it } from 'vitest';
import { browserSuite, signedInPage } from './browser.ts';
import { addDummyNode, addSite } from './fixtures.ts';

describe('manager web client: an image that could not be looked up', { timeout: 90_000 }, () => {
  const suite = browserSuite();

  it('warns before Create and creates only when asked again', async () => {
    const siteId = await addSite(suite.admin, 'images');
    await addDummyNode(suite.admin, siteId, 'sim-i');
    const { context, page } = await signedInPage(suite, 'admin', `/sites/${siteId}/containers/new`);
    await page.getByLabel(/^Hostname/).fill('lookedup');
    await page.getByText('Custom image').click();
    await page.getByLabel(/^Image/).fill('registry.invalid/team/app:1');
    await page.getByRole('button', { name: 'Look up image' }).click();
    await page.getByTestId('lookup-result').waitFor();

    await page.getByRole('button', { name: 'Create container' }).click();
    await page
      .getByTestId('image-warning')
      .getByText(/lookup of registry\.invalid\/team\/app:1 failed/)
      .waitFor();
    const containers = async () =>
      ((await suite.admin.get(`/sites/${siteId}/containers`)).body.data as unknown[]).length;
    expect(await containers()).toBe(0);

    await page.getByRole('button', { name: 'Create anyway' }).click();
    await page.waitForURL(new RegExp(`/sites/${siteId}/containers/\\d+`));
    expect(await containers()).toBe(1);
    await context.close();
  });
});
