import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '@app/server-kit/testing';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';

describe('notifications', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let user: ManagerClient;
  let tool: TestClient;
  let ctid: string;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    user = await userClient(test, admin, 'paula');
    const adminKey = (await admin.post('/apikeys', {})).body.data.key;
    tool = new TestClient(`${test.baseUrl}/api/v1`);
    tool.defaultHeaders.authorization = `Bearer ${adminKey}`;
    const siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    const created = await admin.post(`/sites/${siteId}/containers`, {
      hostname: 'paula1',
      template: 'debian:12',
      username: 'paula',
    });
    await jobEnds(admin, created.body.data.jobId);
    ctid = (await admin.get(`/sites/${siteId}/containers/${created.body.data.containerId}`)).body.data
      .containerId;
  });
  afterAll(() => test?.close());

  it('accepts events only with an administrator API key', async () => {
    const body = { source: 'oom-watch', severity: 'warning', message: 'Memory high' };
    expect((await test.client().post('/notifications', body)).status).toBe(401);
    const session = await admin.post('/notifications', body);
    expect(session.status).toBe(403);
    const userKey = (await user.post('/apikeys', {})).body.data.key;
    const asUser = await test
      .client()
      .post('/notifications', body, { headers: { authorization: `Bearer ${userKey}` } });
    expect(asUser.status).toBe(403);
    const invalid = await tool.post('/notifications', { source: 'x', severity: 'loud', message: 'm' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_request');
  });

  it('stores ts as eventAt and resolves the owner from node and ctid', async () => {
    const created = await tool.post('/notifications', {
      source: 'oom-watch',
      severity: 'critical',
      message: 'Container killed',
      node: 'sim1',
      ctid: Number(ctid),
      action: 'kill',
      evidence: { rssMb: 4100 },
      ts: 1_790_000_000,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      source: 'oom-watch',
      severity: 'critical',
      node: 'sim1',
      ctid: String(ctid),
      owner: 'paula',
      action: 'kill',
      message: 'Container killed',
      evidence: { rssMb: 4100 },
      eventAt: new Date(1_790_000_000 * 1000).toISOString(),
      acknowledgedAt: null,
      acknowledgedBy: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const unresolved = await tool.post('/notifications', {
      source: 's',
      severity: 'info',
      message: 'm',
      node: 'nowhere',
      ctid: '1',
    });
    expect(unresolved.body.data.owner).toBeNull();
  });

  it("lists the caller's own, unacknowledged first then newest, and acknowledges one or all", async () => {
    for (const message of ['first', 'second', 'third']) {
      await tool.post('/notifications', { source: 's', severity: 'info', message, owner: 'paula' });
    }
    await tool.post('/notifications', {
      source: 's',
      severity: 'info',
      message: 'for admin',
      owner: 'admin',
    });
    const listed = await user.get('/notifications');
    expect(listed.body.data.map((n: { message: string }) => n.message)).toEqual([
      'third',
      'second',
      'first',
      'Container killed',
    ]);
    const firstId = listed.body.data[2].id;
    const acked = await user.post(`/notifications/${firstId}/ack`);
    expect(acked.body.data).toMatchObject({
      id: firstId,
      acknowledgedBy: 'paula',
      acknowledgedAt: expect.any(String),
    });
    const after = await user.get('/notifications?limit=2');
    expect(after.body.data.map((n: { message: string }) => n.message)).toEqual(['third', 'second']);
    const reordered = await user.get('/notifications');
    expect(reordered.body.data.at(-1).message).toBe('first');

    const adminOwn = (await admin.get('/notifications')).body.data;
    expect(adminOwn.map((n: { message: string }) => n.message)).toEqual(['for admin']);
    expect((await admin.post(`/notifications/${firstId}/ack`)).status).toBe(404);
    expect((await user.post('/notifications/99999/ack')).status).toBe(404);
    expect((await user.get('/notifications?limit=0')).status).toBe(400);
    expect((await user.get('/notifications?limit=101')).status).toBe(400);

    const all = await user.post('/notifications/all/ack');
    expect(all.body.data).toEqual({ acknowledged: 3 });
    expect((await user.post('/notifications/all/ack')).body.data).toEqual({ acknowledged: 0 });
    expect((await test.client().get('/notifications')).status).toBe(401);
  });
});

describe('external domains', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let siteId: number;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput({ name: 'Edge' }))).body.data.id;
  });
  afterAll(() => test?.close());

  it('creates, shows, updates (key kept when blank) and deletes, never returning the key', async () => {
    const created = await admin.post('/external-domains', {
      name: 'Apps.Example.test',
      acmeEmail: 'ops@example.test',
      cloudflareApiEmail: 'dns@example.test',
      cloudflareApiKey: 'cf-secret-key',
      siteId,
      authServer: 'http://127.0.0.1:4180',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      name: 'apps.example.test',
      acmeEmail: 'ops@example.test',
      acmeDirectoryUrl: null,
      dnsProviderApiEmail: 'dns@example.test',
      siteId,
      site: { id: siteId, name: 'Edge' },
      authServer: 'http://127.0.0.1:4180',
      hasDnsProviderApiKey: true,
    });
    expect(created.text).not.toContain('cf-secret-key');
    const id = created.body.data.id;
    const raw = await test.manager.database.db.selectFrom('external_domains').selectAll().execute();
    expect(JSON.stringify(raw)).not.toContain('cf-secret-key');

    const updated = await admin.put(`/external-domains/${id}`, {
      name: 'apps.example.test',
      dnsProviderApiEmail: 'dns@example.test',
      dnsProviderApiKey: '',
      siteId: null,
    });
    expect(updated.body.data).toMatchObject({
      hasDnsProviderApiKey: true,
      siteId: null,
      site: null,
      acmeEmail: null,
      authServer: null,
    });
    expect((await admin.get(`/external-domains/${id}`)).body.data.name).toBe('apps.example.test');
    expect((await admin.get('/external-domains')).body.data).toHaveLength(1);
    expect((await admin.delete(`/external-domains/${id}`)).status).toBe(204);
    expect((await admin.get(`/external-domains/${id}`)).status).toBe(404);
  });

  it('validates names and URLs (422), duplicates (409), and is for administrators only', async () => {
    const bad = await admin.post('/external-domains', {
      name: 'not a domain',
      authServer: 'ftp://x',
      siteId: 9999,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['authServer', 'name', 'siteId']);
    await admin.post('/external-domains', { name: 'dup.example.test' });
    const duplicate = await admin.post('/external-domains', { name: 'dup.example.test' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('conflict');
    const user = await userClient(test, admin, 'quinn');
    expect((await user.get('/external-domains')).status).toBe(403);
    expect((await user.post('/external-domains', { name: 'x.example.test' })).status).toBe(403);
  });

  it('refuses to delete a domain that HTTP services use (409 in_use)', async () => {
    const domainId = (await admin.post('/external-domains', { name: 'used.example.test', siteId })).body.data
      .id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim-edge', nodeType: 'dummy' });
    const created = await admin.post(`/sites/${siteId}/containers`, {
      hostname: 'site1',
      template: 'nginx:latest',
      services: {
        web: { type: 'http', internalPort: 80, externalHostname: 'site1', externalDomainId: domainId },
      },
    });
    expect(created.status).toBe(201);
    const refused = await admin.delete(`/external-domains/${domainId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('in_use');
  });
});
