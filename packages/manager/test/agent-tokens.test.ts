import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@app/server-kit';
import { TestClient } from '@app/server-kit/testing';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { checkin, startFleetManager } from './fleet-helpers.ts';
import { siteWithTcpService } from './container-helpers.ts';

/**
 * Per-site agent tokens. The manager sits behind a reverse proxy on its own host (TRUST_PROXY =
 * 127.0.0.1) and the agent's requests come through it from 203.0.113.5: a remote caller.
 */
describe('per-site agent tokens', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let siteA: number;
  let siteB: number;
  let serviceA: number;
  let serviceB: number;

  const remote = (token?: string) => {
    const client = new TestClient(`${test.baseUrl}/api/v1`);
    client.defaultHeaders['x-forwarded-for'] = '203.0.113.5';
    if (token) client.defaultHeaders.authorization = `Bearer ${token}`;
    return client;
  };
  const newToken = async (siteId: number, description?: string) => {
    const response = await admin.post(`/sites/${siteId}/agent-tokens`, description ? { description } : {});
    expect(response.status, response.text).toBe(201);
    return response.body.data as { id: string; token: string };
  };
  beforeAll(async () => {
    test = await startFleetManager({ TRUST_PROXY: '127.0.0.1' });
    admin = await adminClient(test);
    ({ siteId: siteA, serviceId: serviceA } = await siteWithTcpService(admin, 'web-a', { name: 'alpha' }));
    ({ siteId: siteB, serviceId: serviceB } = await siteWithTcpService(admin, 'web-b', { name: 'beta' }));
  });
  afterAll(() => test?.close());

  it('an admin creates one for a site: the secret once, with a warning; stored as prefix + SHA-256', async () => {
    const response = await admin.post(`/sites/${siteA}/agent-tokens`, { description: 'gateway alpha' });
    expect(response.status).toBe(201);
    const created = response.body.data;
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      siteId: siteA,
      tokenPrefix: created.token.slice(0, 12),
      description: 'gateway alpha',
      lastUsedAt: null,
      createdAt: expect.any(String),
      token: expect.stringMatching(/^cma_[\w-]{43}$/),
      warning: expect.stringMatching(/will not be shown again/),
    });
    const listed = await admin.get(`/sites/${siteA}/agent-tokens`);
    expect(listed.status).toBe(200);
    const { token, warning, ...shown } = created;
    expect(listed.body.data).toEqual([shown]);
    expect(listed.text).not.toContain(token);
    expect(warning).toBeTruthy();
    const rows = await test.manager.database.db.selectFrom('agent_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((row) => row.token_hash)).toEqual([sha256Hex(token)]);
    expect((await admin.get(`/sites/${siteB}/agent-tokens`)).body.data).toEqual([]);
  });

  it('only admins manage them; an unknown site is 404 site_not_found', async () => {
    const user = await userClient(test, admin, 'nora');
    expect((await user.get(`/sites/${siteA}/agent-tokens`)).status).toBe(403);
    expect((await user.post(`/sites/${siteA}/agent-tokens`, {})).status).toBe(403);
    expect((await test.client().get(`/sites/${siteA}/agent-tokens`)).status).toBe(401);
    for (const response of [
      await admin.get('/sites/9999/agent-tokens'),
      await admin.post('/sites/9999/agent-tokens', {}),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('site_not_found');
    }
  });

  it('checks in for its own site from another host (200, then 304); another site is 403', async () => {
    const { token } = await newToken(siteA);
    expect((await remote().post('/agents', checkin(siteA))).status).toBe(401);
    const agent = remote(token);
    const first = await agent.post('/agents', checkin(siteA));
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.site.id).toBe(siteA);
    const etag = first.headers.get('etag')!;
    const again = await agent.post('/agents', checkin(siteA), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);

    const other = await agent.post('/agents', checkin(siteB, { hostname: 'intruder' }));
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('forbidden');
    expect(other.text).not.toContain('"site"');
    const hosts = ((await admin.get('/agents')).body.data as Array<{ siteId: number }>).map((a) => a.siteId);
    expect(hosts).toEqual([siteA]);
  });

  it("reports traffic for its own site's services only", async () => {
    const { token } = await newToken(siteA);
    const agent = remote(token);
    expect((await agent.post(`/services/${serviceA}/last-access`)).status).toBe(204);
    const other = await agent.post(`/services/${serviceB}/last-access`);
    expect(other.status).toBe(403);
    expect((await agent.post('/services/99999/last-access')).status).toBe(404);
    const containers = (await admin.get(`/sites/${siteB}/containers`)).body.data;
    expect(containers[0].lastAccessedAt).toBeNull();
  });

  it('is no user credential: every other route answers 401', async () => {
    const { token } = await newToken(siteA);
    const agent = remote(token);
    for (const [method, path, body] of [
      ['GET', '/session'],
      ['GET', '/health'],
      ['GET', '/sites'],
      ['GET', '/agents'],
      ['GET', `/sites/${siteA}/agent-tokens`],
      ['POST', `/sites/${siteA}/agent-tokens`, {}],
      ['GET', `/sites/${siteA}/containers`],
      ['POST', '/apikeys', {}],
      ['POST', '/notifications', { source: 'x', severity: 'info', message: 'm' }],
    ] as [string, string, unknown?][]) {
      const response = await agent.request(method, path, { body });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body.error.code).toBe('unauthorized');
    }
  });

  it('records when it was last used; a revoked or unknown token is refused at once', async () => {
    const { id, token } = await newToken(siteA, 'to revoke');
    const agent = remote(token);
    expect((await agent.post('/agents', checkin(siteA))).status).toBe(200);
    await expect
      .poll(async () => {
        const tokens = (await admin.get(`/sites/${siteA}/agent-tokens`)).body.data as Array<{
          id: string;
          lastUsedAt: string | null;
        }>;
        return tokens.find((entry) => entry.id === id)?.lastUsedAt;
      })
      .toEqual(expect.any(String));

    expect((await admin.delete(`/sites/${siteB}/agent-tokens/${id}`)).status).toBe(404);
    expect((await admin.delete(`/sites/${siteA}/agent-tokens/${id}`)).status).toBe(204);
    expect((await admin.delete(`/sites/${siteA}/agent-tokens/${id}`)).status).toBe(404);
    const refused = await agent.post('/agents', checkin(siteA));
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthorized');
    expect((await agent.post(`/services/${serviceA}/last-access`)).status).toBe(401);
    expect((await remote(`cma_${'x'.repeat(43)}`).post('/agents', checkin(siteA))).status).toBe(401);
  });

  it('an admin API key still checks in from anywhere, as the spec says', async () => {
    const key = (await admin.post('/apikeys', {})).body.data.key as string;
    expect((await remote(key).post('/agents', checkin(siteB))).status).toBe(200);
  });
});
