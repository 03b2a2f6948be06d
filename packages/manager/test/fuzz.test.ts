import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzOpenApi, type OpenApiDocument } from '@app/server-kit/testing/openapi-fuzz';
import type { TestResponse } from '@app/server-kit/testing';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { createAndWait } from './container-helpers.ts';

/**
 * Every operation of the manager's OpenAPI document gets hostile input from an administrator, a
 * non-administrator and an anonymous remote caller: no 5xx, no hang, every 4xx in the envelope, no stack
 * trace — and the records made before the run read back unchanged.
 */
describe('manager API under hostile input', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let ids: Record<
    | 'site'
    | 'node'
    | 'domain'
    | 'container'
    | 'job'
    | 'service'
    | 'notification'
    | 'request'
    | 'group'
    | 'user',
    string
  >;
  const keys = { admin: '', user: '' };

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    const user = await userClient(test, admin, 'bob');
    keys.admin = (await admin.post('/apikeys', { description: 'fuzz admin' })).body.data.key;
    keys.user = (await user.post('/apikeys', { description: 'fuzz user' })).body.data.key;
    const site = (await admin.post('/sites', siteInput())).body.data;
    const node = (await admin.post(`/sites/${site.id}/nodes`, { name: 'fuzz-node', nodeType: 'dummy' })).body
      .data;
    const domain = (await admin.post('/external-domains', { name: 'apps.example.test', siteId: site.id }))
      .body.data;
    const { container } = await createAndWait(admin, site.id, {
      hostname: 'fuzz-web',
      template: 'nginx:latest',
      username: 'bob',
      collaborators: ['admin'],
      environmentVars: [{ key: 'MODE', value: 'prod' }],
      services: {
        web: { type: 'http', internalPort: 80, externalHostname: 'fuzz-web', externalDomainId: domain.id },
        ssh: { type: 'tcp', internalPort: 22 },
      },
    });
    const notification = (
      await ManagerClientWithKey(test, keys.admin).post('/notifications', {
        source: 'fuzz',
        severity: 'warning',
        message: 'disk almost full',
        owner: 'bob',
      })
    ).body.data;
    const request = (
      await user.post('/resource-requests', {
        siteId: site.id,
        hostname: 'fuzz-web',
        resourceType: 'memory',
        value: 8192,
      })
    ).body.data;
    const group = (await admin.post('/groups', { cn: 'fuzzers', isAdmin: false })).body.data;
    await admin.put('/settings', { bannerMessage: 'Maintenance on [Sunday](https://example.test)' });
    const bob = (await admin.get('/users')).body.data.find((entry: { uid: string }) => entry.uid === 'bob');
    ids = {
      site: String(site.id),
      node: String(node.id),
      domain: String(domain.id),
      container: String(container.id),
      job: String(container.creationJobId),
      service: String(container.services[0].id),
      notification: String(notification.id),
      request: String(request.id),
      group: String(group.gidNumber),
      user: String(bob.uidNumber),
    };
  }, 60_000);
  afterAll(() => test?.close());

  /** What the records made above look like to an administrator (volatile read-time fields left out). */
  const snapshot = async () => {
    const read = async (path: string) => {
      const response = await admin.get(path);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      return JSON.parse(
        response.text.replace(/"(lastUsedAt|secondsSinceCheckin|lastCheckinAt)":[^,}]*/g, '"$1":null'),
      );
    };
    const site = `/sites/${ids.site}`;
    const container = `${site}/containers/${ids.container}`;
    return {
      site: await read(site),
      node: await read(`${site}/nodes/${ids.node}`),
      container: await read(container),
      collaborators: await read(`${container}/collaborators`),
      job: await read(`/jobs/${ids.job}`),
      jobOutput: await read(`/jobs/${ids.job}/status`),
      domain: await read(`/external-domains/${ids.domain}`),
      users: (await read('/users')).data.filter((entry: { uid: string }) =>
        ['admin', 'bob'].includes(entry.uid),
      ),
      group: await read(`/groups/${ids.group}`),
      groups: (await read('/groups')).data.filter((entry: { gidNumber: number }) =>
        [2000, 2001, Number(ids.group)].includes(entry.gidNumber),
      ),
      settings: await read('/settings'),
      request: (await read('/resource-requests')).data.filter(
        (entry: { id: number }) => entry.id === Number(ids.request),
      ),
      apiKeys: (await read('/apikeys')).data.filter(
        (key: { description: string }) => key.description === 'fuzz admin',
      ),
    };
  };

  it('answers every operation in the envelope, never 5xx, and changes nothing it was not asked to', async () => {
    const before = await snapshot();
    const document = (await admin.get('/openapi.json')).body as OpenApiDocument;
    const real: Record<string, string> = {
      siteId: ids.site,
      uidNumber: ids.user,
      gidNumber: ids.group,
      username: 'admin',
    };
    const idByResource: [RegExp, string][] = [
      [/\/containers\/\{id\}/, ids.container],
      [/\/nodes\/\{id\}/, ids.node],
      [/^\/sites\/\{id\}/, ids.site],
      [/^\/jobs\/\{id\}/, ids.job],
      [/^\/external-domains\/\{id\}/, ids.domain],
      [/^\/notifications\/\{id\}/, ids.notification],
      [/^\/resource-requests\/\{id\}/, ids.request],
      [/^\/services\/\{id\}/, ids.service],
    ];
    const report = await fuzzOpenApi({
      origin: test.baseUrl,
      document,
      callers: [
        { name: 'admin key', headers: { authorization: `Bearer ${keys.admin}` }, careful: true },
        { name: 'non-admin key', headers: { authorization: `Bearer ${keys.user}` }, careful: true },
        // Remote: a caller on loopback would be trusted by the agent routes (as the spec says).
        { name: 'anonymous', headers: { 'x-forwarded-for': '203.0.113.7' }, careful: false },
      ],
      guarded: (operation) =>
        [
          'PUT /settings',
          'POST /notifications/all/ack',
          'POST /users/email-all',
          'POST /agents',
          'POST /resource-requests',
        ].includes(operation),
      realPathValue: (path, name) =>
        name === 'id' ? idByResource.find(([pattern]) => pattern.test(path))?.[1] : real[name],
    });
    expect(report.requests, 'requests sent').toBeGreaterThan(5000);
    expect(report.findings).toEqual([]);
    expect(await snapshot()).toEqual(before);
    await expectAuditLogReadable(admin);
  }, 600_000);
});

/** The audit log, which recorded every hostile write above, still lists, exports and parses in full. */
async function expectAuditLogReadable(admin: ManagerClient) {
  for (const path of ['/audit-events', '/users/me/activity']) {
    let cursor: number | null = null;
    do {
      const page: TestResponse<{ data: { events: unknown; nextCursor: number | null } }> = await admin.get(
        `${path}?limit=500${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status, `${path}: ${page.text.slice(0, 300)}`).toBe(200);
      expect(Array.isArray(page.body.data.events), path).toBe(true);
      cursor = page.body.data.nextCursor;
    } while (cursor);
  }
  const csv = await admin.get('/audit-events.csv');
  expect(csv.status, csv.text.slice(0, 300)).toBe(200);
  const rows = csvRows(csv.text);
  expect(rows.length).toBeGreaterThan(1000);
  for (const row of rows) expect(row, JSON.stringify(row)).toHaveLength(rows[0]!.length);
}

/** The rows of an RFC 4180 text whose every cell is quoted or empty (as the export writes them). */
function csvRows(text: string): string[][] {
  const cell = /(?:"((?:[^"]|"")*)"|)(,|\r\n|$)/y;
  const rows: string[][] = [];
  let row: string[] = [];
  while (cell.lastIndex < text.length) {
    const match = cell.exec(text);
    if (!match)
      throw new Error(`not CSV at ${cell.lastIndex}: ${text.slice(cell.lastIndex, cell.lastIndex + 80)}`);
    row.push((match[1] ?? '').replace(/""/g, '"'));
    if (match[2] !== ',') {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

function ManagerClientWithKey(test: TestManager, key: string) {
  const client = test.client();
  client.defaultHeaders.authorization = `Bearer ${key}`;
  return client;
}
