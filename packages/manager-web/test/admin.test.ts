// Browser tests (real Chromium, real manager on loopback): user approval, field errors, groups,
// the API key round trip, settings and the banner, admin-only navigation, every page at desktop and
// phone width (pages whose API is not on this server show a clear state instead of crashing).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { userClient } from '@app/manager/testing';
import {
  browserSuite,
  newPage,
  poll,
  readToast,
  screenshot,
  signIn,
  signInThroughForm,
  signedInPage,
  watch,
} from './browser.ts';
import { addContainer, addDomain, addDummyNode, addSite } from './fixtures.ts';

const PUBLIC_URL = 'https://manager.example.test';
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

describe('manager web client: administration', { timeout: 90_000 }, () => {
  const suite = browserSuite({ PUBLIC_URL });

  it('approves a pending user, who can then sign in; the approval settles its notice', async () => {
    const bob = suite.test.client();
    expect((await bob.register({ uid: 'bob' })).body.data.status).toBe('pending');
    expect((await bob.login('bob')).status).toBe(403);
    expect(await waitingNotices()).toEqual(['bob']);

    const { context, page } = await newPage(suite.browser, suite.test.baseUrl);
    const seen = watch(page);
    await signInThroughForm(page, 'admin');
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
    await poll(waitingNotices).toEqual([]);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: /^Notifications/ })
      .click();
    await settledNotice(page, 'bob');

    // Every write carried the session's CSRF token, fetched once for the session.
    expect(seen.writes.length).toBeGreaterThan(1);
    for (const write of seen.writes) expect(write.csrf, `${write.method} ${write.url}`).toBeTruthy();
    expect(seen.csrfFetches()).toBeLessThanOrEqual(2); // before and after the sign-in
    expect(seen.errors).toEqual([]);
    await context.close();

    const carol = suite.test.client();
    await carol.register({ uid: 'carol' });
    expect(await waitingNotices()).toEqual(['carol']);
    const phone = await newPage(suite.browser, suite.test.baseUrl, PHONE);
    await signIn(phone.page, 'admin', '/users');
    await phone.page.getByText(/^Pending \(1\)$/).click();
    await phone.page.locator('[data-user="carol"]').getByRole('button', { name: 'Approve' }).click();
    await phone.page.getByText('carol is now active').waitFor();
    await poll(waitingNotices).toEqual([]);
    await phone.page.goto('/notifications');
    await settledNotice(phone.page, 'carol');
    await screenshot(phone.page, 'approval-notice-settled-phone');
    await phone.context.close();
  });

  /** Whom the administrator's unread "waits for approval" notices are about. */
  const waitingNotices = async () =>
    ((await suite.admin.get('/notifications')).body.data as Array<Record<string, unknown>>)
      .filter((n) => n.action === 'user.pending' && !n.acknowledgedAt)
      .map((n) => String(n.message).split(' ')[0]);

  /** The notice about `uid` is listed as acknowledged, with nothing left to do. */
  async function settledNotice(page: Page, uid: string) {
    const notice = page
      .getByTestId('notifications')
      .locator('[data-action="user.pending"]')
      .filter({ hasText: `${uid} registered` });
    await notice.getByText('acknowledged', { exact: true }).waitFor();
    expect(await notice.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
  }

  it('shows the fields an API error names next to those fields', async () => {
    const { context, page } = await newPage(suite.browser, suite.test.baseUrl);
    await signIn(page, 'admin', '/users');
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Username/).fill('bob');
    await dialog.getByLabel(/^First name/).fill('Another');
    await dialog.getByLabel(/^Last name/).fill('Bob');
    await dialog.getByLabel(/^E-mail/).fill('bob@example.test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // 409 conflict names the unique column (SQLite reports mail, PostgreSQL uid): the message sits
    // under that input, which is marked invalid.
    // At the field, and in the summary beside Save.
    await dialog.getByText('is already taken').first().waitFor();
    await dialog
      .getByTestId('form-error-summary')
      .getByText(/is already taken/)
      .waitFor();
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
    const { context, page } = await newPage(suite.browser, suite.test.baseUrl);
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
    const groups = (await suite.admin.get('/groups')).body.data as Array<{ cn: string; isAdmin: boolean }>;
    expect(groups.find((g) => g.cn === 'developers')?.isAdmin).toBe(true);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('asks before taking administrator rights from "1 member", in a dialog whose close button is named', async () => {
    const group = (await suite.admin.post('/groups', { cn: 'operators', isAdmin: true })).body.data as {
      gidNumber: number;
    };
    const olga = await suite.admin.post('/users', {
      uid: 'olga',
      givenName: 'Olga',
      sn: 'User',
      mail: 'olga@example.test',
      userPassword: 'correct horse',
      status: 'active',
      groupIds: [2000, group.gidNumber],
    });
    expect(olga.status).toBe(201);
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await newPage(suite.browser, suite.test.baseUrl, viewport);
      await signIn(page, 'admin', '/groups');
      await page.locator('[data-group="operators"]').getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Close' }).waitFor();
      await dialog.getByLabel(/Administrators/).uncheck();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog
        .getByText(
          'Take administrator rights from the 1 member of operators? They lose those rights at once.',
        )
        .waitFor();
      await screenshot(page, `group-demote-question-${viewport.width}`);
      await context.close();
    }
  });

  it('creates, edits and deletes an external domain; bad values are shown at their fields', async () => {
    const siteId = await addSite(suite.admin, 'edge');
    const { context, page, seen } = await signedInPage(suite, 'admin');
    await page.getByRole('link', { name: 'External domains' }).click();
    await page.getByTestId('empty-state').waitFor();
    await page.getByRole('button', { name: 'New domain' }).click();
    const dialog = page.getByRole('dialog', { name: 'New external domain' });
    const domain = dialog.getByLabel(/^Domain/);
    // Nothing typed: the form says so itself.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Required', { exact: true }).waitFor();
    // What is not a domain name, nor an http(s) URL, the server refuses; its words sit at each field.
    await domain.fill('not a domain');
    await dialog.getByLabel('Auth server').fill('127.0.0.1:4180');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('must be a domain name such as example.com', { exact: true }).waitFor();
    await dialog.getByText(/^must be an http\(s\) URL, such as http:\/\/127.0.0.1:4180/).waitFor();
    // Beside the buttons, the summary names both; the first of them has the focus.
    await dialog.getByTestId('form-error-summary').getByText('2 fields need attention').waitFor();
    await poll(() => domain.evaluate((input) => input.matches(':focus'))).toBe(true);
    expect(await domain.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Auth server').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'external-domain-invalid');
    expect((await suite.admin.get('/external-domains')).body.data).toEqual([]);

    await domain.fill('apps.example.test');
    await dialog.getByLabel(/^Default site/).click();
    await page.getByRole('option', { name: 'edge' }).click();
    await dialog.getByLabel('ACME e-mail').fill('certs@example.test');
    await dialog.getByLabel('DNS provider API e-mail').fill('dns@example.test');
    await dialog.getByLabel('DNS provider API key').fill('dns-provider-secret');
    // The example the form gives is a value the server takes (the proxy passes to a URL).
    const authServer = dialog.getByLabel('Auth server');
    await authServer.fill((await authServer.getAttribute('placeholder'))!);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await readToast(page, 'External domain saved');
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByTestId('domains-table').getByRole('row', { name: /apps\.example\.test/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'apps.example.test',
      'edge',
      'certs@example.test',
      // No certificate yet: the agent has reported none for this domain.
      '—',
      'dns@example.testkey stored',
      'http://127.0.0.1:4180',
      'EditDelete',
    ]);

    // Edited: the stored key is kept when its field is left blank.
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit apps.example.test' });
    expect(await edit.getByLabel(/^Domain/).inputValue()).toBe('apps.example.test');
    expect(await edit.getByLabel('DNS provider API key').inputValue()).toBe('');
    await edit.getByText('Stored; leave blank to keep it').waitFor();
    await edit.getByLabel('ACME e-mail').fill('tls@example.test');
    await edit.getByLabel('Auth server').fill('http://127.0.0.1:4181');
    await edit.getByRole('button', { name: 'Save' }).click();
    await readToast(page, 'External domain saved');
    await row.getByText('tls@example.test').waitFor();
    await row.getByText('http://127.0.0.1:4181').waitFor();
    await row.getByText('key stored').waitFor();
    await screenshot(page, 'external-domains-edited');
    const [stored] = (await suite.admin.get('/external-domains')).body.data as Array<{ id: number }>;
    expect((await suite.admin.get(`/external-domains/${stored!.id}`)).body.data).toEqual({
      id: stored!.id,
      name: 'apps.example.test',
      acmeEmail: 'tls@example.test',
      acmeDirectoryUrl: null,
      dnsProviderApiEmail: 'dns@example.test',
      siteId,
      site: { id: siteId, name: 'edge' },
      authServer: 'http://127.0.0.1:4181',
      hasDnsProviderApiKey: true,
    });

    await row.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete apps.example.test' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await readToast(page, 'External domain deleted');
    await page.getByTestId('empty-state').waitFor();
    expect((await suite.admin.get('/external-domains')).body.data).toEqual([]);
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it("shows each certificate's expiry, and why one is failing, on the External domains page", async () => {
    const siteId = await addSite(suite.admin, 'tls');
    await addDummyNode(suite.admin, siteId, 'tls-node');
    const domainId = await addDomain(suite.admin, siteId, 'tls.example.test', {
      acmeEmail: 'ops@example.test',
    });
    const http = (name: string) => ({
      type: 'http',
      internalPort: 80,
      externalHostname: name,
      externalDomainId: domainId,
    });
    await addContainer(suite.admin, siteId, 'shop', { services: { web: http('shop'), api: http('api') } });
    // The site's agent reports its certificates at check-in (from the manager host: no credentials).
    const reported = await suite.test.client().post('/agents', {
      siteId,
      hostname: 'gw-tls',
      certificates: [
        {
          hostname: 'shop.tls.example.test',
          notAfter: '2031-03-04T05:06:07.000Z',
          lastError: null,
          nextAttempt: '2031-01-01T00:00:00.000Z',
        },
        {
          hostname: 'api.tls.example.test',
          notAfter: '2031-02-03T00:00:00.000Z',
          lastError: 'the ACME server refused the HTTP-01 challenge: connection refused',
          nextAttempt: '2030-12-01T10:00:00.000Z',
        },
      ],
    });
    expect(reported.status).toBe(200);

    const { context, page, seen } = await signedInPage(suite, 'admin');
    await page.getByRole('link', { name: 'External domains' }).click();
    const good = page.getByTestId('certificate-shop.tls.example.test');
    await good.getByText('expires 2031-03-04').waitFor();
    expect(await good.getByRole('alert').count()).toBe(0);
    const failing = page.getByTestId('certificate-api.tls.example.test');
    await failing.getByText('expires 2031-02-03').waitFor();
    expect(await failing.getByRole('alert').textContent()).toContain(
      'Failing: the ACME server refused the HTTP-01 challenge: connection refused (next attempt',
    );
    await screenshot(page, 'external-domain-certificates');
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('creates an API key shown once, which works until it is deleted', async () => {
    const { context, page } = await newPage(suite.browser, suite.test.baseUrl);
    await signIn(page, 'admin');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByTestId('empty-state').waitFor();
    await page.getByLabel('Description').fill('ci deploy');
    await page.getByLabel('Description').press('Enter');
    const secret = (await page.getByTestId('new-key').textContent())!.trim();
    expect(secret.length).toBeGreaterThan(20);
    await screenshot(page, 'apikey-created');
    const session = await fetch(`${suite.test.baseUrl}/api/v1/session`, {
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
    const after = await fetch(`${suite.test.baseUrl}/api/v1/session`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(after.status).toBe(401);
    await context.close();
  });

  // Before 'saves settings' sets up SMTP.
  it('without e-mail, says so before inviting and hands the admin a link to copy, shown once', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'ivy'],
      [PHONE, 'ian'],
    ] as const) {
      const { context, page } = await newPage(suite.browser, suite.test.baseUrl, viewport);
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const seen = watch(page);
      await signIn(page, 'admin', '/users');
      await page.getByRole('button', { name: 'Invite' }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite a user' });
      await dialog
        .getByTestId('no-mail')
        .getByText(/E-mail is not set up/)
        .waitFor();
      await dialog.getByLabel(/^E-mail/).fill(`${name}@example.test`);
      await dialog.getByRole('button', { name: 'Create invitation link' }).click();
      const link = dialog.getByTestId('invite-link');
      await link.waitFor();
      const url = (await link.textContent())!;
      expect(url.startsWith(`${PUBLIC_URL}/register?invite=`)).toBe(true);
      await dialog.getByText(`give ${name}@example.test this link yourself`, { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Copy link' }).click();
      await dialog.getByRole('button', { name: 'Copied' }).waitFor();
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(url);
      await screenshot(page, `invite-link${viewport === PHONE ? '-phone' : ''}`);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });
      // Once closed, it is gone: opening the dialog again shows an empty form.
      await page.getByRole('button', { name: 'Invite' }).click();
      expect(await dialog.getByLabel(/^E-mail/).inputValue()).toBe('');
      expect(await page.getByText(url).count()).toBe(0);
      expect(seen.errors).toEqual([]);
      await context.close();

      // The invitee opens it (here, on this manager) and registers an active account.
      const invitee = await newPage(suite.browser, suite.test.baseUrl, viewport);
      const { pathname, search } = new URL(url);
      await invitee.page.goto(`${pathname}${search}`);
      await invitee.page.getByText(`You were invited as ${name}@example.test`).waitFor();
      await invitee.context.close();
    }
  });

  it('saves settings, and the banner appears with its link', async () => {
    const { context, page } = await newPage(suite.browser, suite.test.baseUrl);
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
    const allowlist = page.getByLabel('Registry allowlist');
    await allowlist.fill('127.0.0.1:5000\nhttp://registry.lan');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page
      .getByText(/line 2: must be a host or host:port/)
      .first()
      .waitFor();
    await page
      .getByTestId('form-error-summary')
      .getByText(/line 2: must be a host or host:port/)
      .waitFor();
    await allowlist.fill('127.0.0.1:5000\nregistry.lan');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    const banner = page.getByTestId('banner');
    await banner.getByRole('link', { name: 'details' }).waitFor();
    await screenshot(page, 'settings');
    const settings = (await suite.admin.get('/settings')).body.data;
    expect(settings).toMatchObject({
      smtpUrl: 'smtp://127.0.0.1:2525',
      smtpNoreplyAddress: 'noreply@example.test',
      bannerMessage: 'Upgrade on Friday: [details](https://example.test/upgrade)',
      defaultContainerEnvVars: [{ key: 'TZ', value: 'UTC', description: 'time zone' }],
      registryAllowlist: ['127.0.0.1:5000', 'registry.lan'],
    });
    await context.close();
  });

  it('asks who takes over the containers of a user being deleted, and deletes them then', async () => {
    const siteId = await addSite(suite.admin, 'owned');
    await addDummyNode(suite.admin, siteId, 'owned-node');
    const erin = await userClient(suite.test, suite.admin, 'erin');
    const containerId = await addContainer(erin, siteId, 'erin1');
    const { context, page, seen } = await signedInPage(suite, 'admin');
    await page.getByRole('link', { name: 'Users' }).click();
    const row = page.locator('tr[data-user="erin"]');
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete erin' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog
      .getByTestId('has-containers')
      .getByText(/erin still owns 1 container \(erin1\)/)
      .waitFor();
    const give = dialog.getByRole('button', { name: 'Give them and delete' });
    expect(await give.isDisabled()).toBe(true);
    await screenshot(page, 'user-delete-has-containers');
    await dialog.getByLabel('Give the containers to').click();
    await page.getByRole('option', { name: 'admin' }).click();
    await give.click();
    await readToast(page, 'erin deleted; admin owns the containers now');
    await row.waitFor({ state: 'detached' });
    const container = (await suite.admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data;
    expect(container.owner).toBe('admin');
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('sets who single sign-on admits without approval', async () => {
    const { context, page } = await signedInPage(suite, 'admin');
    await page.getByRole('link', { name: 'Settings' }).click();
    const domains = page.getByRole('combobox', { name: 'Allowed e-mail domains' });
    await domains.fill('not a domain');
    await domains.press('Enter');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('must be an e-mail domain such as example.com').first().waitFor();
    await page
      .getByTestId('form-error-summary')
      .getByText(/must be an e-mail domain/)
      .waitFor();
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await domains.fill('Staff.Example.test');
    await domains.press('Enter');
    const groups = page.getByRole('combobox', { name: 'Allowed groups' });
    await groups.fill('engineers');
    await groups.press('Enter');
    await page.getByLabel('Groups claim').fill('roles');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    await screenshot(page, 'settings-sso');
    expect((await suite.admin.get('/settings')).body.data).toMatchObject({
      ssoAllowedDomains: ['staff.example.test'],
      ssoAllowedGroups: ['engineers'],
      ssoGroupsClaim: 'roles',
    });
    await context.close();
  });

  it('hides administration from other users', async () => {
    await userClient(suite.test, suite.admin, 'dave');
    const { context, page } = await newPage(suite.browser, suite.test.baseUrl);
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

  it('says a page could not be shown and what to do, without a stack trace; going back or reloading recovers', async () => {
    const { context, page, seen } = await signedInPage(suite, 'admin');
    const containers = page.getByRole('heading', { name: /^Containers/ });
    await containers.waitFor();
    // The Groups page's code cannot be fetched (the network dropped, or a new release replaced it).
    await page.route(/\/assets\/Groups-[^/]+\.js$/, (route) => route.abort());
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Groups' })
      .click();
    // What to do, and no stack trace.
    const crashed = page.getByRole('alert').filter({ hasText: 'This page could not be shown' });
    await crashed.waitFor();
    expect(await crashed.textContent()).toContain('Reload to try again, or go back');
    expect(await page.locator('pre').count()).toBe(0);
    await page.goBack();
    await page.waitForURL(/\/containers$/);
    await containers.waitFor();
    expect(await crashed.count()).toBe(0);
    // Once the code can be fetched again, Reload shows the page.
    await page.unroute(/\/assets\/Groups-[^/]+\.js$/);
    await page.goForward();
    await crashed.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('heading', { name: 'Groups' }).waitFor();
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
      ['/audit-log', 'audit-log'],
      ['/activity', 'my-activity'],
    ] as const;
    for (const [viewport, suffix] of [
      [{ width: 1280, height: 860 }, ''],
      [{ width: 390, height: 844 }, '-phone'],
    ] as const) {
      const { context, page } = await newPage(suite.browser, suite.test.baseUrl, viewport);
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
        await page.getByRole('button', { name: 'Open navigation' }).click();
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
