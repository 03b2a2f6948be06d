import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { checkin, siteInput, startFleetManager } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';

describe('agent check-in and snapshot', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let siteId: number;
  let domainId: number;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy', ipv4Address: '10.0.0.3' });
    domainId = (
      await admin.post('/external-domains', {
        name: 'apps.example.test',
        siteId,
        authServer: 'http://127.0.0.1:4180',
        acmeEmail: 'ops@example.test',
      })
    ).body.data.id;
  });
  afterAll(() => test?.close());

  it('answers 422 validation_failed without siteId or hostname, 404 for an unknown site', async () => {
    const agent = test.client();
    for (const body of [{ hostname: 'gw1' }, { siteId }]) {
      const response = await agent.post('/agents', body);
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
    }
    expect(await agent.post('/agents', checkin(siteId)).then((r) => r.status)).toBe(200);
    const unknown = await agent.post('/agents', checkin(9999));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('site_not_found');
  });

  it('answers the snapshot with a strong ETag, and 304 with no body while nothing changes', async () => {
    const agent = test.client();
    const first = await agent.post('/agents', checkin(siteId));
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.body.data.site).toMatchObject({
      id: siteId,
      internalDomain: 'main.internal',
      dhcpRange: '10.0.0.100,10.0.0.200',
      gateway: '10.0.0.1',
      nodes: [{ name: 'sim1', ipv4Address: '10.0.0.3' }],
      containers: [],
    });
    expect(first.body.data.proxy).toEqual({
      httpServices: [],
      streamServices: [],
      // The agent obtains certificates for the domain's hosts from Let's Encrypt (no directory set).
      externalDomains: [
        {
          name: 'apps.example.test',
          acmeEmail: 'ops@example.test',
          acmeDirectoryUrl: null,
          acmeDnsChallenge: false,
        },
      ],
      volumes: [],
      volumeRemovals: [],
    });

    const again = await agent.post('/agents', checkin(siteId), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('content-length') ?? '0').toBe('0'); // a 304 announcing a body stalls keep-alive clients
    expect(again.headers.get('etag')).toBe(etag);
    const stale = await agent.post('/agents', checkin(siteId), { headers: { 'if-none-match': '"old"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe(etag);
  });

  it('changes the ETag after a change to the site containers, services, domains or nodes', async () => {
    const agent = test.client();
    const etagNow = async () => {
      // A write settles for a moment before the snapshot is cached again.
      const response = await agent.post('/agents', checkin(siteId));
      return { etag: response.headers.get('etag')!, body: response.body.data };
    };
    const before = await etagNow();
    const created = await admin.post(`/sites/${siteId}/containers`, {
      hostname: 'web1',
      template: 'nginx:latest',
      services: {
        web: {
          type: 'http',
          internalPort: 80,
          externalHostname: 'web1',
          externalDomainId: domainId,
          authRequired: true,
          hsts: true,
        },
        ssh: { type: 'tcp', internalPort: 22 },
        ldap: { type: 'srv', internalPort: 389, dnsName: '_ldap._tcp' },
      },
    });
    expect(created.status).toBe(201);
    await jobEnds(admin, created.body.data.jobId);
    const withContainer = await etagNow();
    expect(withContainer.etag).not.toBe(before.etag);
    const container = withContainer.body.site.containers[0];
    expect(container).toMatchObject({
      hostname: 'web1',
      ipv4Address: expect.stringMatching(/^10\.0\.0\.\d+$/),
      macAddress: expect.any(String),
    });
    expect(withContainer.body.proxy.httpServices).toEqual([
      {
        serviceId: expect.any(Number),
        host: 'web1.apps.example.test',
        domain: 'apps.example.test',
        backendScheme: 'http',
        address: container.ipv4Address,
        port: 80,
        authRequired: true,
        authServer: 'http://127.0.0.1:4180',
        redirectHttps: false,
        hsts: true,
      },
    ]);
    expect(withContainer.body.proxy.streamServices).toEqual([
      {
        serviceId: expect.any(Number),
        protocol: 'tcp',
        externalPort: expect.any(Number),
        address: container.ipv4Address,
        port: 22,
      },
    ]);
    expect(withContainer.body.site.dnsRecords).toEqual([
      { serviceId: expect.any(Number), dnsName: '_ldap._tcp', hostname: 'web1', port: 389 },
    ]);

    await admin.put(`/external-domains/${domainId}`, {
      name: 'apps.example.test',
      siteId,
      authServer: 'http://127.0.0.1:4181',
    });
    const afterDomain = await etagNow();
    expect(afterDomain.etag).not.toBe(withContainer.etag);

    const nodes = (await admin.get(`/sites/${siteId}/nodes`)).body.data;
    await admin.put(`/sites/${siteId}/nodes/${nodes[0].id}`, { name: 'sim1', ipv4Address: '10.0.0.4' });
    const afterNode = await etagNow();
    expect(afterNode.etag).not.toBe(afterDomain.etag);
    expect(afterNode.body.site.nodes[0].ipv4Address).toBe('10.0.0.4');
  });

  it('lists agents with their services and seconds since check-in (admins only)', async () => {
    const response = await admin.get('/agents');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        id: expect.any(Number),
        siteId,
        siteName: 'Main',
        hostname: 'gw1',
        ipv4Address: '10.0.0.2',
        services: {
          nginx: { state: 'active', lastApply: 'success' },
          dnsmasq: { state: 'active', lastApply: 'unknown' },
        },
        lastCheckinAt: expect.any(String),
        secondsSinceCheckin: expect.any(Number),
      },
    ]);
    const user = await userClient(test, admin, 'nina');
    expect((await user.get('/agents')).status).toBe(403);
  });

  it("keeps the agent's word on a failed apply (bounded), and lists it", async () => {
    const message =
      'refused the snapshot: proxy.httpServices[0].authServer "http://x/;}" is not an auth server URL';
    const failed = {
      nginx: { state: 'active', lastApply: 'failure', message },
      dnsmasq: { state: 'active', lastApply: 'success' },
    };
    expect(
      (await test.client().post('/agents', checkin(siteId, { hostname: 'gw2', services: failed }))).status,
    ).toBe(200);
    const listed = (await admin.get('/agents')).body.data.find(
      (agent: { hostname: string }) => agent.hostname === 'gw2',
    );
    expect(listed.services).toEqual(failed);
    const tooLong = { nginx: { state: 'active', lastApply: 'failure', message: 'x'.repeat(1001) } };
    const refused = await test
      .client()
      .post('/agents', checkin(siteId, { hostname: 'gw2', services: tooLong }));
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields['services.nginx.message']).toBeTruthy();
  });

  it('sets a service last access at most once per 10 minutes', async () => {
    const container = (await admin.get(`/sites/${siteId}/containers`)).body.data[0];
    const serviceId = container.services[0].id;
    const agent = test.client();
    expect((await agent.post(`/services/${serviceId}/last-access`)).status).toBe(204);
    const first = (await admin.get(`/sites/${siteId}/containers/${container.id}`)).body.data;
    expect(first.lastAccessedAt).not.toBeNull();
    expect((await agent.post(`/services/${serviceId}/last-access`)).status).toBe(204);
    const second = (await admin.get(`/sites/${siteId}/containers/${container.id}`)).body.data;
    expect(second.lastAccessedAt).toBe(first.lastAccessedAt);
    const bad = await agent.post('/services/abc/last-access');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    expect((await agent.post('/services/99999/last-access')).status).toBe(404);
  });

  describe('callers from elsewhere (behind a trusted proxy)', () => {
    let remote: TestManager;
    let remoteAdminKey: string;
    let remoteUserKey: string;
    let remoteSite: number;
    beforeAll(async () => {
      remote = await startFleetManager({ TRUST_PROXY: '127.0.0.1' });
      const a = await adminClient(remote);
      remoteSite = (await a.post('/sites', siteInput())).body.data.id;
      remoteAdminKey = (await a.post('/apikeys', {})).body.data.key;
      const u = await userClient(remote, a, 'olga');
      remoteUserKey = (await u.post('/apikeys', {})).body.data.key;
    });
    afterAll(() => remote?.close());

    it('need an admin API key; a forged X-Forwarded-For: 127.0.0.1 changes nothing', async () => {
      const from = (address: string, key?: string) => ({
        headers: { 'x-forwarded-for': address, ...(key ? { authorization: `Bearer ${key}` } : {}) },
      });
      const client = remote.client();
      expect((await client.post('/agents', checkin(remoteSite), from('203.0.113.5'))).status).toBe(401);
      expect((await client.post('/agents', checkin(remoteSite), from('127.0.0.1, 203.0.113.5'))).status).toBe(
        401,
      );
      expect(
        (await client.post('/agents', checkin(remoteSite), from('203.0.113.5', remoteUserKey))).status,
      ).toBe(403);
      expect(
        (await client.post('/agents', checkin(remoteSite), from('203.0.113.5', remoteAdminKey))).status,
      ).toBe(200);
      expect((await client.post('/services/1/last-access', undefined, from('203.0.113.5'))).status).toBe(401);
    });
  });
});
