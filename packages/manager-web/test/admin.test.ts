// Browser tests (real Chromium, real manager on loopback): user approval, field errors, groups,
// the API key round trip, settings and the banner, admin-only navigation, every page at desktop and
// phone width (pages whose API is not on this server show a clear state instead of crashing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  adminClient,
  startManager,
  userClient,
  type ManagerClient,
  type TestManager,
} from '../../manager/test/helpers.ts';
import { ensureBuilt, launchChromium, newPage, screenshot, signIn } from './browser.ts';

/** Records page errors and state-changing API calls (to check the CSRF header on each). */
function watch(page: Page) {
  const errors: string[] = [];
  const writes: Array<{ method: string; url: string; csrf: string | undefined }> = [];
  let csrfFetches = 0;
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/csrf-token') csrfFetches += 1;
    if (url.pathname.startsWith('/api/') && request.method() !== 'GET')
      writes.push({ method: request.method(), url: url.pathname, csrf: request.headers()['x-csrf-token'] });
  });
  return { errors, writes, csrfFetches: () => csrfFetches };
}

describe('manager web client: administration', { timeout: 90_000 }, () => {
  let test: TestManager;
  let browser: Browser;
  let admin: ManagerClient;

  beforeAll(async () => {
    await ensureBuilt();
    [test, browser] = await Promise.all([startManager(), launchChromium()]);
    admin = await adminClient(test, 'admin');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await test?.close();
  });

  it('approves a pending user, who can then sign in', async () => {
    const bob = test.client();
    expect((await bob.register({ uid: 'bob' })).body.data.status).toBe('pending');
    expect((await bob.login('bob')).status).toBe(403);

    const { context, page } = await newPage(browser, test.baseUrl);
    const seen = watch(page);
    await signIn(page, 'admin');
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByText(/^Pending \(1\)$/).click();
    const row = page.locator('tr[data-user="bob"]');
    await row.waitFor();
    await screenshot(page, 'users-pending');
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('bob is now active').waitFor();
    await page.getByText(/^All$/).click();
    await row.locator('[data-status="active"]').waitFor();
    expect((await bob.login('bob')).status).toBe(200);

    // Every write carried the session's CSRF token, fetched once for the session.
    expect(seen.writes.length).toBeGreaterThan(1);
    for (const write of seen.writes) expect(write.csrf, `${write.method} ${write.url}`).toBeTruthy();
    expect(seen.csrfFetches()).toBeLessThanOrEqual(2); // before and after the sign-in
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('shows the fields an API error names next to those fields', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    await signIn(page, 'admin');
    await page.goto('/users');
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Username/).fill('bob');
    await dialog.getByLabel(/^First name/).fill('Another');
    await dialog.getByLabel(/^Last name/).fill('Bob');
    await dialog.getByLabel(/^E-mail/).fill('bob@example.test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // 409 conflict names the unique column (SQLite reports mail, PostgreSQL uid): the message sits
    // under that input, which is marked invalid.
    await dialog.getByText('is already taken').waitFor();
    const invalid = await Promise.all(
      [/^Username/, /^E-mail/].map((label) => dialog.getByLabel(label).getAttribute('aria-invalid')),
    );
    expect(invalid).toContain('true');
    await screenshot(page, 'user-form-conflict');
    await dialog.getByLabel(/^Username/).fill('carol');
    await dialog.getByLabel(/^E-mail/).fill('carol@example.test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator('tr[data-user="carol"]').waitFor();
    await context.close();
  });

  it('creates, edits and deletes a group', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    await signIn(page, 'admin');
    await page.getByRole('link', { name: 'Groups' }).click();
    await page.locator('tr[data-group="sysadmins"]').waitFor();
    await page.getByRole('button', { name: 'New group' }).click();
    await page.getByRole('dialog').getByLabel(/^Name/).fill('developers');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    const row = page.locator('tr[data-group="developers"]');
    await row.waitFor();
    await row.getByRole('button', { name: 'Edit' }).click();
    await page
      .getByRole('dialog')
      .getByLabel(/Administrators/)
      .check();
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await row.getByText('admin').waitFor();
    await screenshot(page, 'groups');
    const groups = (await admin.get('/groups')).body.data as Array<{ cn: string; isAdmin: boolean }>;
    expect(groups.find((g) => g.cn === 'developers')?.isAdmin).toBe(true);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('creates an API key shown once, which works until it is deleted', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    await signIn(page, 'admin');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByTestId('empty-state').waitFor();
    await page.getByLabel('Description').fill('ci deploy');
    await page.getByLabel('Description').press('Enter');
    const secret = (await page.getByTestId('new-key').textContent())!.trim();
    expect(secret.length).toBeGreaterThan(20);
    await screenshot(page, 'apikey-created');
    const session = await fetch(`${test.baseUrl}/api/v1/session`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { data: { user: string } }).data.user).toBe('admin');
    await page.getByRole('button', { name: 'Done' }).click();

    const row = page.getByTestId('apikeys-table').getByRole('row', { name: /ci deploy/ });
    await row.waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('empty-state').waitFor();
    const after = await fetch(`${test.baseUrl}/api/v1/session`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(after.status).toBe(401);
    await context.close();
  });

  it('saves settings, and the banner appears with its link', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    await signIn(page, 'admin');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('SMTP URL').fill('smtp://127.0.0.1:2525');
    await page.getByLabel('No-reply address').fill('noreply@example.test');
    await page
      .getByLabel('Banner message')
      .fill('Upgrade on Friday: [details](https://example.test/upgrade)');
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Name 1').fill('TZ');
    await page.getByLabel('Value 1').fill('UTC');
    await page.getByLabel('Description 1').fill('time zone');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    const banner = page.getByTestId('banner');
    await banner.getByRole('link', { name: 'details' }).waitFor();
    await screenshot(page, 'settings');
    const settings = (await admin.get('/settings')).body.data;
    expect(settings).toMatchObject({
      smtpUrl: 'smtp://127.0.0.1:2525',
      smtpNoreplyAddress: 'noreply@example.test',
      bannerMessage: 'Upgrade on Friday: [details](https://example.test/upgrade)',
      defaultContainerEnvVars: [{ key: 'TZ', value: 'UTC', description: 'time zone' }],
    });
    await context.close();
  });

  it('hides administration from other users', async () => {
    await userClient(test, admin, 'dave');
    const { context, page } = await newPage(browser, test.baseUrl);
    const seen = watch(page);
    await signIn(page, 'dave');
    expect(await page.getByTestId('current-user').textContent()).toBe('dave');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'API keys' }).waitFor();
    for (const name of ['Users', 'Groups', 'Sites', 'Settings', 'Agents'])
      expect(await nav.getByRole('link', { name }).count(), name).toBe(0);
    await page.goto('/users');
    await page.getByText('This page is for administrators.').waitFor();
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('renders every page at desktop and phone width without crashing', async () => {
    const pages = [
      ['/containers', 'containers'],
      ['/sites', 'sites'],
      ['/nodes', 'nodes'],
      ['/users', 'users'],
      ['/groups', 'groups-list'],
      ['/external-domains', 'external-domains'],
      ['/agents', 'agents'],
      ['/settings', 'settings-page'],
      ['/resource-requests', 'resource-requests'],
      ['/notifications', 'notifications'],
      ['/apikeys', 'apikeys'],
    ] as const;
    for (const [viewport, suffix] of [
      [{ width: 1280, height: 860 }, ''],
      [{ width: 390, height: 844 }, '-phone'],
    ] as const) {
      const { context, page } = await newPage(browser, test.baseUrl, viewport);
      const seen = watch(page);
      await signIn(page, 'admin');
      for (const [path, name] of pages) {
        await page.goto(path);
        await page.locator('h2').first().waitFor();
        // Data, an empty state, or a clear "not available" state: never a blank page or a spinner.
        await page
          .locator(
            'table, [data-testid="empty-state"], [data-testid="error-state"], form, [data-testid="notifications"]',
          )
          .first()
          .waitFor();
        await screenshot(page, `${name}${suffix}`);
      }
      if (suffix) {
        // The navigation folds behind the burger on a phone.
        await page.getByRole('button', { name: 'Toggle navigation' }).click();
        await page
          .getByRole('navigation', { name: 'Main navigation' })
          .getByRole('link', { name: 'Users' })
          .click();
        await page.waitForURL('**/users');
        const width = await page.evaluate('document.documentElement.scrollWidth');
        expect(width).toBeLessThanOrEqual(400);
      }
      expect(seen.errors).toEqual([]);
      await context.close();
    }
  });
});
