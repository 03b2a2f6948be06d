// Browser tests (real Chromium, real manager on loopback) of what users ask for and are told: a
// user files resource requests that an administrator approves or denies, and reads the outcome;
// node-side tools post notifications (with an administrator's API key) that their owner reads and
// acknowledges, one and then all, while the unread badge follows.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { userClient } from '@app/manager/testing';
import { FAST_JOBS } from '@app/manager/testing/fleet';
import { jobEnds } from '@app/manager/testing/containers';
import { DESKTOP, PHONE } from '@app/server-kit/testing/chromium';
import { browserSuite, newPage, poll, readToast, screenshot, signedInPage, signIn } from './browser.ts';
import { addContainer, addDummyNode, addSite, adminKeyClient } from './fixtures.ts';

/** The unread badge on the navigation's Notifications entry: its count, or null when there is none. */
async function unreadBadge(page: Page): Promise<string | null> {
  const link = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', {
    name: /^Notifications/,
  });
  const badge = link.getByLabel(/unread$/);
  return (await badge.count()) ? badge.textContent() : null;
}

describe('manager web client: resource requests and notifications', { timeout: 90_000 }, () => {
  const suite = browserSuite(FAST_JOBS);
  let siteId: number;

  beforeAll(async () => {
    siteId = await addSite(suite.admin, 'main');
    await addDummyNode(suite.admin, siteId, 'sim1');
  });

  it('a user requests resources, an administrator approves one and denies another, the user sees both', async () => {
    const { test, admin } = suite;
    const rita = await userClient(test, admin, 'rita');
    await addContainer(rita, siteId, 'app1');

    // Straight to the page (a fresh load): the form still starts on the first site.
    const user = await signedInPage(suite, 'rita');
    await user.page.goto('/resource-requests');
    await user.page.getByRole('heading', { name: 'My resource requests' }).waitFor();
    await user.page.getByTestId('empty-state').waitFor();
    const file = async (resource: string, amount: string, comment: string, outcome: string) => {
      await user.page.getByRole('button', { name: 'New request' }).click();
      const dialog = user.page.getByRole('dialog', { name: 'Request resources' });
      await poll(() => dialog.getByLabel(/^Site/).inputValue()).toBe('main');
      await dialog.getByLabel(/^Container hostname/).fill('app1');
      await dialog.getByLabel(/^Resource/).click();
      await user.page.getByRole('option', { name: resource }).click();
      await dialog.getByLabel(/^Amount/).fill(amount);
      await dialog.getByLabel('Why do you need it?').fill(comment);
      await dialog.getByRole('button', { name: 'File request' }).click();
      await readToast(user.page, outcome);
      await dialog.waitFor({ state: 'detached' });
    };
    await file('Memory (MB)', '8192', 'builds need more memory', 'Request filed for review');
    await file('CPUs', '16', 'parallel test runs', 'Request filed for review');
    await file('CPUs', '2', 'a second core', 'Approved at once (within the defaults)');
    const table = user.page.getByTestId('requests-table');
    const memory = table.getByRole('row', { name: /memory: 8192 MB/ });
    const cpus = table.getByRole('row', { name: /cpus: 16 CPUs/ });
    const small = table.getByRole('row', { name: /cpus: 2 CPUs/ });
    await memory.locator('[data-status="pending"]').waitFor();
    await cpus.locator('[data-status="pending"]').waitFor();
    await small.locator('[data-status="approved"]').waitFor();
    await small.getByText('by system').waitFor();
    await screenshot(user.page, 'resource-requests-filed');

    // The administrator reviews the pending two.
    const reviewer = await signedInPage(suite, 'admin');
    await reviewer.page.getByRole('link', { name: 'Resource requests' }).click();
    const pending = reviewer.page.getByTestId('requests-table');
    await poll(() => pending.getByRole('row').count()).toBe(3); // the header and two requests
    expect(await pending.getByRole('cell', { name: 'rita', exact: true }).count()).toBe(2);
    const review = async (row: string, action: 'Approve' | 'Deny', text: string, comment: string) => {
      await pending
        .getByRole('row', { name: new RegExp(row) })
        .getByRole('button', { name: action })
        .click();
      const dialog = reviewer.page.getByRole('dialog', { name: `${action} request` });
      await dialog.getByText(text).waitFor();
      await dialog.getByLabel('Comment for the requester').fill(comment);
      const answer = reviewer.page.waitForResponse((r) => r.request().method() === 'PUT');
      await dialog.getByRole('button', { name: action }).click();
      await readToast(reviewer.page, action === 'Approve' ? 'Approved' : 'Denied');
      await dialog.waitFor({ state: 'detached' });
      return (await (await answer).json()) as { data: { status: string; jobId: number | null } };
    };
    const approved = await review(
      'memory: 8192 MB',
      'Approve',
      'rita asks for 8192 MB of memory on app1.',
      'Granted for the build season',
    );
    const denied = await review(
      'cpus: 16 CPUs',
      'Deny',
      'rita asks for 16 CPUs of cpus on app1.',
      'No spare CPUs',
    );
    await reviewer.page.getByTestId('empty-state').getByText('No requests').waitFor();
    await screenshot(reviewer.page, 'resource-requests-reviewed');

    // The approval resizes rita's container through a job; the denial changes nothing.
    expect(approved.data.status).toBe('approved');
    expect(await jobEnds(admin, approved.data.jobId!)).toBe('success');
    expect(denied.data).toMatchObject({ status: 'denied', jobId: null });
    expect((await rita.get(`/resource-requests/effective/${siteId}/app1/rita`)).body.data).toMatchObject({
      memory: 8192,
      cpus: 2,
    });
    await reviewer.context.close();

    // rita sees the outcome of each, with the administrator's comment.
    await user.page.reload();
    await memory.locator('[data-status="approved"]').waitFor();
    await memory.getByText('by admin').waitFor();
    await memory.getByText('Admin: Granted for the build season').waitFor();
    await cpus.locator('[data-status="denied"]').waitFor();
    await cpus.getByText('Admin: No spare CPUs').waitFor();
    await screenshot(user.page, 'resource-requests-outcome');
    await user.page.getByText('Denied', { exact: true }).click();
    await memory.waitFor({ state: 'detached' });
    await cpus.waitFor();
    expect(await table.getByRole('row').count()).toBe(2);
    expect(user.seen.errors).toEqual([]);
    await user.context.close();
  });

  it('notifications posted for a user: they read them, acknowledge one and then all; the badge follows', async () => {
    const { test, admin } = suite;
    const nina = await userClient(test, admin, 'nina');
    const otto = await userClient(test, admin, 'otto');
    const box = await addContainer(nina, siteId, 'nina-box');
    const ctid = (await nina.get(`/sites/${siteId}/containers/${box}`)).body.data.containerId as string;

    // Node-side tools post with an administrator's API key; a browser session may not.
    expect((await nina.post('/notifications', { source: 'x', severity: 'info', message: 'x' })).status).toBe(
      403,
    );
    const tools = await adminKeyClient(test, admin);
    const post = async (body: Record<string, unknown>) => {
      const response = await tools.post('/notifications', body);
      expect(response.status, response.text).toBe(201);
      return response.body.data as { id: number; owner: string | null };
    };
    // The owner comes from the node and container id when the tool does not name one.
    const oom = await post({
      source: 'oom-watch',
      severity: 'critical',
      node: 'sim1',
      ctid: Number(ctid),
      action: 'kill',
      message: 'Process java was killed: out of memory',
      evidence: { rssMb: 4100, limitMb: 4096 },
      ts: Math.floor(Date.now() / 1000) - 60,
    });
    expect(oom.owner).toBe('nina');
    await post({
      source: 'disk-watch',
      severity: 'warning',
      owner: 'nina',
      message: 'Root filesystem 91% full',
    });
    await post({ source: 'maintenance', severity: 'info', owner: 'nina', message: 'sim1 reboots on Sunday' });
    await post({ source: 'disk-watch', severity: 'warning', owner: 'otto', message: 'Not for nina' });

    const { context, page, seen } = await signedInPage(suite, 'nina');
    await poll(() => unreadBadge(page)).toBe('3');
    await page.getByRole('link', { name: /^Notifications/ }).click();
    const list = page.getByTestId('notifications');
    const cards = list.locator(':scope > *');
    await poll(() => cards.count()).toBe(3);
    expect(await list.getByText('Not for nina').count()).toBe(0);
    const card = (text: string) => cards.filter({ hasText: text });
    const critical = card('Process java was killed');
    await critical.getByText('oom-watch · kill').waitFor();
    await critical.getByText(`sim1 / ${ctid}`).waitFor();
    await critical.locator('[data-status="critical"]').waitFor();
    await critical.getByRole('button', { name: 'Evidence' }).click();
    const evidence = critical.locator('pre');
    await evidence.getByText('"rssMb": 4100').waitFor();
    // Read once the spoiler has opened all the way (to within a pixel's rounding).
    const open = (pre: {
      closest(selector: string): unknown;
      getBoundingClientRect(): { height: number };
    }) => {
      const content = pre.closest('.mantine-Spoiler-content') as typeof pre;
      return content.getBoundingClientRect().height + 1 >= pre.getBoundingClientRect().height;
    };
    await poll(() => evidence.evaluate(open)).toBe(true);
    await screenshot(page, 'notifications-unread');

    await critical.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await critical.getByText('acknowledged', { exact: true }).waitFor();
    await poll(() => unreadBadge(page)).toBe('2');
    // Unacknowledged first: the acknowledged one moves to the end.
    await poll(() => cards.last().textContent()).toContain('Process java was killed');

    await page.getByRole('button', { name: 'Acknowledge all' }).click();
    await readToast(page, '2 acknowledged');
    await poll(() => unreadBadge(page)).toBeNull();
    expect(await list.getByText('acknowledged', { exact: true }).count()).toBe(3);
    expect(await page.getByRole('button', { name: 'Acknowledge all' }).isDisabled()).toBe(true);
    await screenshot(page, 'notifications-acknowledged');

    // The server agrees; the other user's notification is untouched.
    const mine = (await nina.get('/notifications')).body.data as Array<{ acknowledgedBy: string | null }>;
    expect(mine.map((n) => n.acknowledgedBy)).toEqual(['nina', 'nina', 'nina']);
    const theirs = (await otto.get('/notifications')).body.data as Array<{
      message: string;
      acknowledgedAt: null;
    }>;
    expect(theirs).toMatchObject([{ message: 'Not for nina', acknowledgedAt: null }]);
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('an alert notice links to the container it is about, at both widths', async () => {
    const pia = await userClient(suite.test, suite.admin, 'pia');
    const id = await addContainer(pia, siteId, 'pia-web');
    const tools = await adminKeyClient(suite.test, suite.admin);
    // The shape the alert evaluator writes: source manager, the subject's type and id in its evidence.
    const alert = await tools.post('/notifications', {
      source: 'manager',
      severity: 'warning',
      owner: 'pia',
      action: 'alert.firing',
      message: 'busy: cpuPercent of container pia-web is 91, above 90 for 300 s.',
      evidence: { ruleId: 1, subjectType: 'container', subjectId: id, value: 91 },
    });
    expect(alert.status, alert.text).toBe(201);
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await newPage(suite.browser, suite.test.baseUrl, viewport);
      await signIn(page, 'pia', '/notifications');
      const link = page.getByTestId('notifications').getByRole('link', { name: 'Open pia-web' });
      expect(await link.getAttribute('href')).toBe(`/sites/${siteId}/containers/${id}`);
      await screenshot(page, `notification-alert-link-${viewport.width}`);
      await context.close();
    }
  });
});
