// The end-to-end flow in real Chromium against the real manager (SQLite or PostgreSQL, a
// dummy node): the first user registers, creates a site and a node, creates a container with an
// HTTP and an SSH service, watches the job log to completion, sees it running, shares it with a
// second user who sees it read-only, and deletes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startManager, userClient, type ManagerClient, type TestManager } from '@app/manager/testing';
import { closeChromium, ensureBuilt, launchChromium, newPage, screenshot, signIn } from './browser.ts';

describe('manager web client: container lifecycle', { timeout: 180_000 }, () => {
  let test: TestManager;
  let browser: Browser;
  let admin: ManagerClient;

  beforeAll(async () => {
    await ensureBuilt();
    [test, browser] = await Promise.all([startManager(), launchChromium()]);
  }, 120_000);

  afterAll(async () => {
    await closeChromium(browser);
    await test?.close();
  });

  it('registers, builds a site, creates, shares and deletes a container', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    // The first user registers through the form and is an administrator.
    await page.goto('/register');
    await page.getByLabel(/^Username/).fill('owner');
    await page.getByLabel(/^First name/).fill('Olive');
    await page.getByLabel(/^Last name/).fill('Owner');
    await page.getByLabel(/^E-mail/).fill('owner@example.test');
    await page.getByLabel(/^Password/).fill('correct horse');
    await page.getByLabel(/^Repeat password/).fill('correct horse');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByTestId('registered').waitFor();
    await signIn(page, 'owner');
    admin = test.client();
    await admin.login('owner');

    // A site, through the Sites page.
    await page.getByRole('link', { name: 'Sites' }).click();
    await page.getByRole('button', { name: 'New site' }).click();
    const siteForm = page.getByRole('dialog');
    await siteForm.getByLabel(/^Name/).fill('lab');
    await siteForm.getByLabel(/^Internal domain/).fill('lab.internal');
    await siteForm.getByLabel('DHCP range').fill('10.20.0.100,10.20.0.200');
    await siteForm.getByLabel('Subnet mask').fill('255.255.255.0');
    await siteForm.getByLabel('Gateway').fill('10.20.0.1');
    await siteForm.getByLabel('DNS forwarders').fill('1.1.1.1');
    await siteForm.getByLabel(/^External IP/).fill('203.0.113.10');
    await siteForm.getByRole('button', { name: 'Save' }).click();
    await page.locator('tr[data-site="lab"]').waitFor();
    const sites = (await admin.get('/sites')).body.data as Array<{ id: number; name: string }>;
    const siteId = sites.find((s) => s.name === 'lab')!.id;

    // A dummy node, through the node form.
    await page.goto(`/sites/${siteId}/nodes/new`);
    await page.getByLabel(/^Name/).fill('dummy1');
    await page.locator('input[data-path="nodeType"]').click();
    await page.getByRole('option', { name: 'Dummy (simulated)' }).click();
    await page.getByRole('button', { name: 'Save node' }).click();
    await page.waitForURL(new RegExp(`/sites/${siteId}/nodes/\\d+$`));
    await screenshot(page, 'node-detail');

    // An external domain for the HTTP service.
    expect((await admin.post('/external-domains', { name: 'apps.example.test', siteId })).status).toBe(201);

    // The container: template, an HTTP service and an SSH service.
    await page.goto(`/sites/${siteId}/containers`);
    await page.getByTestId('empty-state').waitFor();
    await page.getByRole('link', { name: 'New container' }).first().click();
    // The list has a hostname filter too: fill the form's field once the form is there.
    await page.waitForURL(new RegExp(`/sites/${siteId}/containers/new$`));
    await page.getByRole('button', { name: 'Create container' }).waitFor();
    await page.getByLabel(/^Hostname/).fill('web1');
    await page.getByRole('button', { name: '+ HTTP' }).click();
    await page.getByRole('button', { name: '+ SSH' }).click();
    // The HTTP service starts with the site's first external domain.
    expect(await page.getByLabel('Service 1 external domain').first().inputValue()).toBe('apps.example.test');
    await screenshot(page, 'container-create');
    await page.getByRole('button', { name: 'Create container' }).click();

    // The job log streams until the job succeeds; then the container runs.
    await page.waitForURL(new RegExp(`/sites/${siteId}/containers/\\d+\\?job=\\d+`));
    const log = page.getByTestId('job-log');
    await log.waitFor();
    await expect.poll(() => log.getAttribute('data-status'), { timeout: 90_000 }).toBe('success');
    expect((await log.locator('pre').textContent())!.length).toBeGreaterThan(10);
    await page.locator('[data-status="running"]').first().waitFor({ timeout: 30_000 });
    await page
      .getByTestId('services-table')
      .getByText(/apps\.example\.test/)
      .first()
      .waitFor();
    await page
      .getByText(/ssh -p \d+ owner@/)
      .first()
      .waitFor();
    await screenshot(page, 'container-detail');

    // The list shows it with its status, owner, node, IP, SSH command and HTTP link.
    await page.goto(`/sites/${siteId}/containers`);
    const row = page.locator('tr[data-container="web1"]');
    await row.locator('[data-status="running"]').waitFor();
    await row.getByText('dummy1').waitFor();
    await row.getByText(/ssh -p/).waitFor();
    await row.getByRole('link', { name: /web1.*apps\.example\.test/ }).waitFor();
    await screenshot(page, 'containers-list');

    // Shared with a second user, who sees it read-only.
    await userClient(test, admin, 'erin');
    await row.getByRole('link', { name: 'web1', exact: true }).click();
    await page.getByLabel('Share with username').fill('erin');
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByTestId('collaborators').getByText('erin').waitFor();
    await page.getByTestId('shared-with').getByText('Shared with erin.').waitFor();
    const detailUrl = page.url().split('?')[0]!;

    // At phone width the SSH command wraps, whole, instead of being cut off; on the edit page the
    // assigned HTTP name keeps its case.
    await page.setViewportSize({ width: 390, height: 844 });
    const ssh = page.getByTestId('ssh-command');
    expect(await ssh.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${detailUrl}/edit`);
    const assigned = page.getByTestId('assigned-name').first();
    const textTransform = await assigned.evaluate(
      (el) =>
        (
          globalThis as unknown as { getComputedStyle(e: unknown): { textTransform: string } }
        ).getComputedStyle(el).textTransform,
    );
    expect(textTransform).toBe('none');
    await page.goto(detailUrl);

    const other = await newPage(browser, test.baseUrl);
    await signIn(other.page, 'erin', `/sites/${siteId}/containers`);
    await other.page.locator('tr[data-container="web1"]').getByText('shared with you').waitFor();
    await other.page.goto(detailUrl);
    await other.page.getByTestId('read-only').waitFor();
    for (const name of ['Edit', 'Delete', 'Restart', 'Share'])
      expect(await other.page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    await screenshot(other.page, 'container-shared-read-only');
    await other.context.close();

    // The owner deletes it.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(new RegExp(`/sites/${siteId}/containers$`));
    await page.getByTestId('empty-state').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
