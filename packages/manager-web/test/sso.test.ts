// Browser test of single sign-on against a real OpenID provider (oidc-provider on loopback): the
// sign-in page offers only the SSO button, and the round trip lands on the page asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { freePort, startManager, type TestManager } from '@app/manager/testing';
import { ssoEnv, startOidcProvider } from '@app/manager/testing/oidc-provider';
import { closeChromium, ensureBuilt, launchChromium, newPage, screenshot } from './browser.ts';

const startProvider = (redirectBase: string) =>
  startOidcProvider(redirectBase, (id) => ({
    email: `${id}@example.test`,
    verified: true,
    givenName: 'Sso',
    familyName: 'User',
  }));

describe('manager web client: single sign-on', { timeout: 60_000 }, () => {
  let test: TestManager;
  let browser: Browser;
  let provider: Awaited<ReturnType<typeof startProvider>>;

  beforeAll(async () => {
    await ensureBuilt();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    provider = await startProvider(base);
    [test, browser] = await Promise.all([startManager(ssoEnv(port, provider.issuer)), launchChromium()]);
  }, 120_000);

  afterAll(async () => {
    await closeChromium(browser);
    await test?.close();
    await provider?.close();
  });

  it('offers only the SSO button, and signs in through the provider back to the page asked for', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    await page.goto('/apikeys');
    await page.waitForURL(/\/login\?redirect=%2Fapikeys/);
    const sso = page.getByTestId('sso');
    await sso.waitFor();
    expect(await page.locator('input[type="password"]').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Register' }).count()).toBe(0);
    await screenshot(page, 'login-sso');
    await sso.click();

    // The provider's development login and consent screens.
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill('carol');
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').first().click();
    for (let step = 0; step < 3 && new URL(page.url()).origin === provider.issuer; step++) {
      const submit = page.locator('button[type="submit"]').first();
      if (await submit.count()) await submit.click();
      await page.waitForLoadState();
    }
    await page.waitForURL('**/apikeys');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await page.getByTestId('current-user').textContent()).toContain('carol');
    await context.close();
  });
});
