import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { checkin, startFleetManager } from './fleet-helpers.ts';
import { siteWithTcpService } from './container-helpers.ts';

/**
 * Who may check in and report traffic without a credential: only a direct loopback caller. A reverse
 * proxy on the manager host connects from loopback too, so a request that carries a forwarding header
 * from a peer outside TRUST_PROXY (here: none is trusted) came from somewhere else.
 */
describe('agent check-in and last-access: local callers only, and CSRF for browser sessions', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let siteId: number;
  let containerId: number;
  let serviceId: number;
  let volumeId: number;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    ({ siteId, containerId, serviceId } = await siteWithTcpService(admin, 'web1'));
    const volume = await test.manager.database.db
      .insertInto('volumes')
      .values({
        container_id: containerId,
        name: 'data',
        host_path: '/srv/data',
        mount_path: '/data',
        mode: 'rw',
        scope: 'container',
        builtin: 0,
        status: 'pending',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    volumeId = volume.id;
  });
  afterAll(() => test?.close());

  const volumeStatus = async () =>
    (
      await test.manager.database.db
        .selectFrom('volumes')
        .select('status')
        .where('id', '=', volumeId)
        .executeTakeFirstOrThrow()
    ).status;
  const lastAccess = async () =>
    (await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data.lastAccessedAt;

  const FORWARDED: [string, string][] = [
    ['x-forwarded-for', '203.0.113.5'],
    ['x-forwarded-for', '127.0.0.1'],
    ['x-real-ip', '127.0.0.1'],
    ['forwarded', 'for=127.0.0.1'],
  ];

  it.each(FORWARDED)(
    'a check-in through an untrusted proxy (%s: %s) gets 401: no snapshot, no record, no volume change',
    async (name, value) => {
      const response = await test
        .client()
        .post(
          '/agents',
          checkin(siteId, { hostname: 'proxied', volumes: [{ id: volumeId, status: 'ready' }] }),
          { headers: { [name]: value } },
        );
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('unauthorized');
      expect(response.text).not.toContain('"site"');
      expect(response.headers.get('etag')).toBeNull();
      expect(await volumeStatus()).toBe('pending');
      expect((await admin.get('/agents')).body.data).toEqual([]);
    },
  );

  it.each(FORWARDED)(
    'a last-access report through an untrusted proxy (%s: %s) gets 401 and changes nothing',
    async (name, value) => {
      const response = await test
        .client()
        .post(`/services/${serviceId}/last-access`, undefined, { headers: { [name]: value } });
      expect(response.status).toBe(401);
      expect(await lastAccess()).toBeNull();
    },
  );

  it('the same calls straight from loopback, without any forwarding header, are local', async () => {
    const response = await test
      .client()
      .post('/agents', checkin(siteId, { volumes: [{ id: volumeId, status: 'ready' }] }));
    expect(response.status).toBe(200);
    expect(response.body.data.site.id).toBe(siteId);
    expect(await volumeStatus()).toBe('ready');
    expect((await test.client().post(`/services/${serviceId}/last-access`)).status).toBe(204);
    expect(await lastAccess()).not.toBeNull();
  });

  describe.each([
    ['a TRUST_PROXY list without this peer', '192.0.2.1', false],
    ['a TRUST_PROXY list with this peer, which names a loopback client', '127.0.0.1', true],
  ])('behind %s', (_label, trustProxy, local) => {
    let proxied: TestManager;
    let proxiedSite: number;
    beforeAll(async () => {
      proxied = await startFleetManager({ TRUST_PROXY: trustProxy });
      proxiedSite = (await siteWithTcpService(await adminClient(proxied), 'web1')).siteId;
    });
    afterAll(() => proxied?.close());

    it(`a check-in forwarded for 127.0.0.1 is ${local ? '' : 'not '}local`, async () => {
      const response = await proxied
        .client()
        .post('/agents', checkin(proxiedSite), { headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(response.status).toBe(local ? 200 : 401);
      const remote = await proxied
        .client()
        .post('/agents', checkin(proxiedSite), { headers: { 'x-forwarded-for': '203.0.113.5' } });
      expect(remote.status).toBe(401);
    });
  });

  describe('a browser session needs the CSRF token on both routes, like any write', () => {
    const routes = () => [
      { path: '/agents', body: checkin(siteId, { hostname: 'from-browser' }), ok: 200 },
      { path: `/services/${serviceId}/last-access`, body: undefined, ok: 204 },
    ];

    it('without the token: 403 csrf_invalid, and nothing recorded', async () => {
      for (const route of routes()) {
        const response = await admin.post(route.path, route.body, { headers: { 'x-csrf-token': '' } });
        expect(response.status, route.path).toBe(403);
        expect(response.body.error.code).toBe('csrf_invalid');
      }
      const hosts = ((await admin.get('/agents')).body.data as Array<{ hostname: string }>).map(
        (agent) => agent.hostname,
      );
      expect(hosts).not.toContain('from-browser');
    });

    it('with the token: accepted', async () => {
      for (const route of routes()) {
        expect((await admin.post(route.path, route.body)).status, route.path).toBe(route.ok);
      }
    });

    it('an admin API key (Bearer) needs no CSRF token', async () => {
      const key = (await admin.post('/apikeys', {})).body.data.key as string;
      const agent = test.client();
      agent.defaultHeaders.authorization = `Bearer ${key}`;
      for (const route of routes()) {
        expect((await agent.post(route.path, route.body)).status, route.path).toBe(route.ok);
      }
    });
  });
});
