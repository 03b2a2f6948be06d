// The container pages against the Containers API as the spec defines it. Sign-in, session and CSRF
// are the real manager's; the site, node and container endpoints (not on this server yet) are
// answered by Chromium's request interception with the spec's shapes, so the test checks what the
// client sends (the create and update bodies) and how it renders what the spec says it receives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page, Route } from 'playwright-core';
import { adminClient, startManager, userClient, type TestManager } from '@app/manager/testing';
import { DESKTOP, PHONE } from '@app/server-kit/testing/chromium';
import { closeChromium, ensureBuilt, launchChromium, newPage, poll, screenshot, signIn } from './browser.ts';

const site = {
  id: 1,
  name: 'lab',
  internalDomain: 'lab.internal',
  dhcpRange: '10.20.0.100,10.20.0.200',
  subnetMask: '255.255.255.0',
  gateway: '10.20.0.1',
  dnsForwarders: '1.1.1.1',
  externalIp: '203.0.113.10',
  nodeCount: 1,
};
const node = {
  id: 4,
  name: 'pve1',
  nodeType: 'dummy',
  siteId: 1,
  ipv4Address: null,
  apiUrl: null,
  tokenId: null,
  tlsVerify: null,
  imageStorage: 'local',
  volumeStorage: 'local-lvm',
  networkBridge: 'vmbr0',
  nvidiaAvailable: false,
  volumeIdShift: null,
  hasSecret: false,
};
const container = {
  id: 7,
  hostname: 'web1',
  owner: 'admin',
  collaborators: ['erin'],
  containerId: '100',
  status: 'running',
  template: 'ghcr.io/example/app:1.2',
  ipv4Address: '10.20.0.100',
  macAddress: 'BC:24:11:00:00:01',
  creationJobId: 3,
  entrypoint: '/start.sh',
  environmentVars: { FOO: 'bar' },
  nvidiaRequested: false,
  sshPort: 2201,
  sshHost: 'lab.example.test',
  httpEntries: [{ port: 8080, externalUrl: 'https://web1.apps.example.test' }],
  lastAccessedAt: null,
  nodeName: 'pve1',
  nodeApiUrl: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  services: [
    {
      id: 11,
      type: 'http',
      internalPort: 8080,
      lastAccessedAt: null,
      httpService: {
        id: 21,
        externalHostname: 'web1',
        externalDomainId: 1,
        backendProtocol: 'http',
        authRequired: true,
        redirectHttps: false,
        hsts: true,
        domain: 'apps.example.test',
      },
      transportService: null,
      dnsService: null,
    },
    {
      id: 12,
      type: 'transport',
      internalPort: 22,
      lastAccessedAt: null,
      httpService: null,
      transportService: { id: 22, protocol: 'tcp', externalPort: 2201 },
      dnsService: null,
    },
  ],
};

const createJob = {
  id: 3,
  command: 'container.create',
  status: 'success',
  createdAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:01:00.000Z',
};

const taken = 'taken is already used by a container of alice on this site; choose another hostname.';

/** The visible <label> in `scope` that reads exactly `text`. */
const labelIn = (scope: Locator, text: string) =>
  scope.locator('label').filter({ hasText: new RegExp(`^${text}$`) });

const json = (route: Route, data: unknown, status = 200) =>
  route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ data }) });

/** Answers the not-yet-built endpoints; records what the client sent. */
async function stubContainersApi(
  page: Page,
  sent: Array<{ method: string; path: string; body: unknown }>,
  externalDomains = [{ id: 1, name: 'apps.example.test', siteId: 1 }],
) {
  await page.route(/\/api\/v1\/(sites|jobs|resource-requests\/effective)(\/|$|\?)/, async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const path = url.pathname.replace('/api/v1', '');
    const method = request.method();
    if (method !== 'GET') sent.push({ method, path, body: request.postDataJSON() });
    if (path === '/sites') return json(route, [site]);
    if (path.startsWith('/resource-requests/effective/1/'))
      return json(route, { cpus: 2, memory: 2048, swap: 512, rootfs: 20 });
    if (path === '/sites/1/nodes') return json(route, [node]);
    if (path === '/sites/1/containers/new')
      return json(route, {
        siteId: 1,
        externalDomains,
        nvidiaAvailable: false,
      });
    if (path === '/sites/1/containers/metadata')
      return json(route, {
        ports: [
          { port: 22, protocol: 'tcp' },
          { port: 8080, protocol: 'tcp' },
        ],
        httpServices: [{ port: 8080, hostnameSuffix: '', requireAuth: true }],
        entrypoint: '/start.sh',
        env: [{ key: 'FOO', value: 'bar' }],
      });
    if (path === '/sites/1/containers' && method === 'POST') {
      const body = request.postDataJSON() as { hostname: string };
      if (body.hostname === 'taken')
        return route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: JSON.stringify({
            error: { code: 'conflict', message: taken, fields: { hostname: taken } },
          }),
        });
      return json(route, { containerId: 7, jobId: 3, hostname: body.hostname, status: 'creating' }, 201);
    }
    if (path === '/sites/1/containers') return json(route, [container]);
    if (path === '/sites/1/containers/7' && method === 'PUT')
      return json(route, { containerId: 7, jobId: null, dnsWarnings: [], message: 'Saved' });
    if (path === '/sites/1/containers/7') return json(route, container);
    if (path === '/sites/1/containers/7/collaborators') return json(route, { collaborators: ['erin'] });
    if (path === '/sites/1/containers/7/jobs')
      return json(route, [{ ...createJob, finishedAt: createJob.updatedAt, lastOutput: null }]);
    if (path === '/jobs/3') return json(route, { ...createJob, createdBy: 'admin' });
    if (path === '/jobs/3/stream')
      return route.fulfill({
        status: 200,
        contentType: 'text/event-stream',
        body: [1, 2, 3]
          .map(
            (id) =>
              `id: ${id}\nevent: log\ndata: ${JSON.stringify({ id, output: `line ${id}`, timestamp: '' })}\n\n`,
          )
          .concat(`event: status\ndata: ${JSON.stringify({ status: 'success' })}\n\n`)
          .join(''),
      });
    return route.fulfill({
      status: 404,
      contentType: 'application/json',
      body: '{"error":{"code":"not_found","message":"stub"}}',
    });
  });
}

describe('manager web client: container pages against the spec shapes', { timeout: 60_000 }, () => {
  let test: TestManager;
  let browser: Browser;

  beforeAll(async () => {
    await ensureBuilt();
    [test, browser] = await Promise.all([startManager(), launchChromium()]);
    await userClient(test, await adminClient(test, 'admin'), 'erin');
  }, 120_000);

  afterAll(async () => {
    await closeChromium(browser);
    await test?.close();
  });

  it('creates a container from a looked-up image, then follows its job', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    const sent: Array<{ method: string; path: string; body: unknown }> = [];
    await stubContainersApi(page, sent);
    await signIn(page, 'admin', '/sites/1/containers/new');
    await page.getByLabel(/^Hostname/).fill('taken');
    await page.getByText('Custom image').click();
    await page.getByLabel(/^Image/).fill('ghcr.io/example/app:1.2');
    await page.getByRole('button', { name: 'Look up image' }).click();
    await page
      .getByTestId('lookup-result')
      .getByText(/Pre-filled 2 services, 1 variable and the entrypoint/)
      .waitFor();
    expect(await page.getByLabel('Entrypoint').inputValue()).toBe('/start.sh');
    expect(await page.getByTestId('service-row').count()).toBe(2);
    await page.getByRole('button', { name: '+ SRV' }).click();
    await page.getByLabel('Service 3 DNS name').fill('_app._tcp');
    await page.getByRole('combobox', { name: /^Collaborators/ }).fill('erin');
    await page.getByRole('combobox', { name: /^Collaborators/ }).press('Enter');

    // A conflict names the hostname: the page brings that field (far above the button) into view
    // and focus, its message under it and in the summary beside the button.
    await page.getByRole('button', { name: 'Create container' }).click();
    const summary = page.getByTestId('form-error-summary');
    await summary.getByText(`Hostname: ${taken}`).waitFor();
    const hostname = page.getByLabel(/^Hostname/);
    await poll(() => hostname.evaluate((input) => input.matches(':focus'))).toBe(true);
    expect(await hostname.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await hostname.getAttribute('aria-describedby'))!.split(' ')[0]!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(taken);
    await screenshot(page, 'container-create-taken-hostname');
    await page.getByLabel(/^Hostname/).fill('web1');
    await page.getByLabel('Service 1 external hostname').fill('web1');
    await screenshot(page, 'container-create-form');
    await page.getByRole('button', { name: 'Create container' }).click();

    await page.waitForURL('**/sites/1/containers/7?job=3');
    const log = page.getByTestId('job-log');
    await expect.poll(() => log.getAttribute('data-status'), { timeout: 15_000 }).toBe('success');
    expect(await log.locator('pre').textContent()).toBe('line 1\nline 2\nline 3');
    await page.getByTestId('services-table').getByText('https://web1.apps.example.test').waitFor();
    await page.getByText('ssh -p 2201 admin@lab.example.test').waitFor();
    await screenshot(page, 'container-detail-stubbed');

    const create = sent.filter((s) => s.method === 'POST' && s.path === '/sites/1/containers').at(-1)!;
    expect(create.body).toEqual({
      hostname: 'web1',
      template: 'custom',
      customTemplate: 'ghcr.io/example/app:1.2',
      entrypoint: '/start.sh',
      nvidiaRequested: false,
      collaborators: ['erin'],
      environmentVars: [{ key: 'FOO', value: 'bar' }],
      services: {
        0: {
          type: 'http',
          internalPort: 8080,
          externalHostname: 'web1',
          externalDomainId: 1,
          authRequired: true,
          redirectHttps: false,
          hsts: false,
        },
        1: { type: 'tcp', internalPort: 22 },
        2: { type: 'srv', internalPort: 25565, dnsName: '_app._tcp' },
      },
    });
    await context.close();
  });

  it('lets an administrator add the missing domain from an HTTP service row, keeping the input', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    const sent: Array<{ method: string; path: string; body: unknown }> = [];
    await stubContainersApi(page, sent, []);
    await page.route(/\/api\/v1\/external-domains$/, async (route) => {
      sent.push({ method: 'POST', path: '/external-domains', body: route.request().postDataJSON() });
      return json(route, { id: 5, name: 'demo.example.test', siteId: 1 }, 201);
    });
    await signIn(page, 'admin', '/sites/1/containers/new');
    await page.getByLabel(/^Hostname/).fill('blog');
    await page.getByLabel('Entrypoint').fill('/run.sh');
    await page.getByRole('button', { name: '+ HTTP' }).click();
    await page.getByLabel('Service 1 external hostname').fill('www');
    await page.getByRole('button', { name: 'Add a domain' }).click();
    await page.getByLabel('New domain name').fill('demo.example.test');
    await page.getByLabel('New domain name').press('Enter');

    await poll(() => page.getByRole('combobox', { name: 'Service 1 external domain' }).inputValue()).toBe(
      'demo.example.test',
    );
    expect(await page.getByLabel(/^Hostname/).inputValue()).toBe('blog');
    expect(await page.getByLabel('Entrypoint').inputValue()).toBe('/run.sh');
    expect(await page.getByLabel('Service 1 external hostname').inputValue()).toBe('www');
    expect(sent.find((s) => s.path === '/external-domains')?.body).toEqual({
      name: 'demo.example.test',
      siteId: 1,
    });
    expect(sent.some((s) => s.path === '/sites/1/containers')).toBe(false);
    await screenshot(page, 'container-create-domain-added');

    await page.getByRole('button', { name: 'Create container' }).click();
    await page.waitForURL('**/sites/1/containers/7?job=3');
    const create = sent.find((s) => s.path === '/sites/1/containers')!;
    expect(create.body).toMatchObject({
      hostname: 'blog',
      entrypoint: '/run.sh',
      services: { 0: { type: 'http', externalHostname: 'www', externalDomainId: 5 } },
    });
    await context.close();
  });

  it('tells other users without a domain to ask an administrator', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    await stubContainersApi(page, [], []);
    await signIn(page, 'erin', '/sites/1/containers/new');
    await page.getByRole('button', { name: '+ HTTP' }).click();
    await page.getByTestId('no-domain').getByText('ask an administrator').waitFor();
    expect(await page.getByRole('button', { name: 'Add a domain' }).count()).toBe(0);
    await context.close();
  });

  it('lists containers and sends a full update from the edit form', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    const sent: Array<{ method: string; path: string; body: unknown }> = [];
    await stubContainersApi(page, sent);
    await signIn(page, 'admin', '/sites/1/containers');
    const row = page.locator('tr[data-container="web1"]');
    await row.locator('[data-status="running"]').waitFor();
    await row.getByText('ssh -p 2201 admin@lab.example.test').waitFor();
    await row.getByRole('link', { name: 'web1.apps.example.test' }).waitFor();
    await screenshot(page, 'containers-list-stubbed');

    await page.goto('/sites/1/containers/7/edit');
    await page.getByRole('button', { name: 'Remove service 2' }).click();
    await page.getByLabel('Redirect HTTP to HTTPS').check();
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Name 2').fill('MODE');
    await page.getByLabel('Value 2').fill('prod');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL('**/sites/1/containers/7');
    const update = sent.find((s) => s.method === 'PUT')!;
    expect(update.body).toEqual({
      entrypoint: '/start.sh',
      environmentVars: [
        { key: 'FOO', value: 'bar' },
        { key: 'MODE', value: 'prod' },
      ],
      services: {
        0: {
          id: 11,
          type: 'http',
          internalPort: 8080,
          externalHostname: 'web1',
          externalDomainId: 1,
          authRequired: true,
          redirectHttps: true,
          hsts: true,
        },
        1: { id: 12, deleted: true },
      },
      restart: false,
    });
    await context.close();
  });

  it('resumes a dropped job stream after the last line it showed', async () => {
    const { context, page } = await newPage(browser, test.baseUrl);
    await stubContainersApi(page, []);
    const resumedFrom: Array<string | null> = [];
    const event = (id: number) =>
      `id: ${id}\nevent: log\ndata: ${JSON.stringify({ id, output: `step ${id}`, timestamp: '' })}\n\n`;
    await page.route(/\/api\/v1\/jobs\/9(\/|$)/, async (route) => {
      const url = new URL(route.request().url());
      if (!url.pathname.endsWith('/stream'))
        return json(route, {
          id: 9,
          command: 'container.create',
          status: 'running',
          createdBy: 'admin',
          createdAt: '2026-11-25T10:00:00.000Z',
          updatedAt: '2026-11-25T10:00:00.000Z',
        });
      const headers = await route.request().allHeaders();
      const from = headers['last-event-id'] ?? url.searchParams.get('lastId');
      resumedFrom.push(from);
      // The first connection drops after two lines; the next one continues after the last id seen.
      const body = from
        ? [3, 4]
            .filter((id) => id > Number(from))
            .map(event)
            .join('') + 'event: status\ndata: {"status":"success"}\n\n'
        : 'retry: 200\n\n' + event(1) + event(2);
      return route.fulfill({ status: 200, contentType: 'text/event-stream', body });
    });
    await signIn(page, 'admin', '/jobs/9');
    const log = page.getByTestId('job-log');
    await expect.poll(() => log.getAttribute('data-status'), { timeout: 15_000 }).toBe('success');
    expect(await log.locator('pre').textContent()).toBe('step 1\nstep 2\nstep 3\nstep 4');
    expect(resumedFrom).toEqual([null, '2']);
    await context.close();
  });

  it("shows a container's size, links its job page back to it, and labels each service input, at both widths", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await newPage(browser, test.baseUrl, viewport);
      const sent: Array<{ method: string; path: string; body: unknown }> = [];
      await stubContainersApi(page, sent);
      const asked: string[] = [];
      page.on('request', (request) => asked.push(new URL(request.url()).pathname));
      await signIn(page, 'admin', '/sites/1/containers/7');
      const size = page.getByTestId('container-size');
      await size.getByText('2 cores').waitFor();
      await size.getByText('2,048 MB + 512 MB swap').waitFor();
      await size.getByText('20 GB').waitFor();
      expect(asked).toContain('/api/v1/resource-requests/effective/1/web1/admin');
      await screenshot(page, `container-detail-size-${viewport.width}`);

      // A job's page leads back to its container (whose page lists its jobs) and to the activity page.
      await page.getByTestId('container-jobs').getByRole('link', { name: '#3' }).click();
      await page.getByRole('heading', { name: 'Job #3' }).waitFor();
      const back = page.getByTestId('job-links').getByRole('link', { name: /Container web1/ });
      await back.waitFor();
      const activity = page.getByTestId('job-links').getByRole('link', { name: 'My activity' });
      expect(await activity.getAttribute('href')).toBe('/activity');
      await screenshot(page, `job-page-links-${viewport.width}`);
      await back.click();
      await page.waitForURL('**/sites/1/containers/7');

      // The create body takes no size: the form shows what approved requests give this hostname.
      await page.goto('/sites/1/containers/new');
      await page.getByLabel(/^Hostname/).fill('web2');
      await page.getByTestId('container-size').getByText('2 cores').waitFor();
      expect(asked).toContain('/api/v1/resource-requests/effective/1/web2/admin');
      await page.getByRole('button', { name: '+ HTTP' }).click();
      await page.getByRole('button', { name: '+ SRV' }).click();
      const [http, srv] = [page.getByTestId('service-row').nth(0), page.getByTestId('service-row').nth(1)];
      for (const label of ['Type', 'Internal port', 'External hostname', 'Domain'])
        expect(await labelIn(http, label).isVisible()).toBe(true);
      expect(await labelIn(srv, 'DNS name').isVisible()).toBe(true);
      await screenshot(page, `container-create-size-labels-${viewport.width}`);
      await context.close();
    }
  });
});
