import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '@app/server-kit/testing';
import type { ManagerApp } from '../src/app.ts';
import {
  adminClient,
  startManager,
  startPeer,
  userClient,
  type ManagerClient,
  type TestManager,
} from './helpers.ts';
import { siteInput } from './fleet-helpers.ts';

/**
 * Two manager processes on one PostgreSQL database, each with its own cache of the callers behind API
 * keys and agent tokens: a change made through one is refused by the other as soon as its notification
 * arrives, not when the other's cached entry runs out. Each step waits for that notification (the
 * other's cache emptied), so a step that would only pass through the cache's expiry times out instead.
 */
describe.runIf(testDialect() === 'postgres')('credentials changed in one manager process', () => {
  let test: TestManager;
  let peer: ManagerApp;
  let admin: ManagerClient;
  let user: ManagerClient;

  beforeAll(async () => {
    test = await startManager({}, { role: 'api' });
    peer = await startPeer(test, { role: 'api' });
    admin = await adminClient(test);
    user = await userClient(test, admin, 'erin');
  });
  afterAll(async () => {
    await peer?.close();
    await test?.close();
  });

  const onPeer = (method: 'GET' | 'POST', url: string, secret: string, body?: object) =>
    peer.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${secret}` },
      ...(body ? { payload: body } : {}),
    });
  const peerHears = () =>
    new Promise<void>((resolve, reject) => {
      peer.services.principals.onClear(resolve);
      // Well within the cache's 5 s: only a notification can have emptied it.
      const timer = setTimeout(() => reject(new Error('the other process heard of no change')), 3000);
      timer.unref();
    });
  /** Runs `change` in the first process; resolves once the peer has heard of it. */
  const changeAndHear = async (change: () => Promise<unknown>) => {
    const heard = peerHears();
    await change();
    await heard;
  };
  /** Every earlier change heard by the peer (notifications arrive in commit order). */
  const settled = () =>
    changeAndHear(() =>
      test.manager.services.ctx.db
        .updateTable('groups')
        .set((eb) => ({ is_admin: eb.ref('is_admin') }))
        .where('gid_number', '=', -1)
        .execute(),
    );
  const newKey = async (client: ManagerClient) =>
    (await client.post('/apikeys', {})).body.data as { id: string; key: string };

  it('a deleted API key is refused by the other process', async () => {
    const { id, key } = await newKey(user);
    await settled();
    expect((await onPeer('GET', '/session', key)).statusCode).toBe(200);
    await changeAndHear(async () => expect((await user.delete(`/apikeys/${id}`)).status).toBe(204));
    const refused = await onPeer('GET', '/session', key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('unauthorized');
  });

  it("a suspended user's key is refused by the other process, and works again once reactivated", async () => {
    const { key } = await newKey(user);
    const erin = (await admin.get('/users')).body.data.find((u: { uid: string }) => u.uid === 'erin');
    await settled();
    expect((await onPeer('GET', '/session', key)).statusCode).toBe(200);
    await changeAndHear(() => admin.put(`/users/${erin.uidNumber}`, { status: 'suspended' }));
    expect((await onPeer('GET', '/session', key)).statusCode).toBe(401);
    await changeAndHear(() => admin.put(`/users/${erin.uidNumber}`, { status: 'active' }));
    expect((await onPeer('GET', '/session', key)).statusCode).toBe(200);
    await user.login('erin'); // the suspension ended her session
  });

  it('a membership or a group changed in one process changes what the other lets the key do', async () => {
    const { key } = await newKey(user);
    const erin = (await admin.get('/users')).body.data.find((u: { uid: string }) => u.uid === 'erin');
    await settled();
    expect((await onPeer('GET', '/users', key)).statusCode).toBe(403);
    const ops = (await admin.post('/groups', { cn: 'ops', isAdmin: true })).body.data.gidNumber as number;
    await changeAndHear(() => admin.put(`/users/${erin.uidNumber}`, { groupIds: [2000, ops] }));
    expect((await onPeer('GET', '/session', key)).json().data.isAdmin).toBe(true);
    expect((await onPeer('GET', '/users', key)).statusCode).toBe(200);
    await changeAndHear(() => admin.put(`/groups/${ops}`, { isAdmin: false }));
    expect((await onPeer('GET', '/users', key)).statusCode).toBe(403);
  });

  it("a revoked agent token is refused by the other process's check-in", async () => {
    const siteId = (await admin.post('/sites', siteInput())).body.data.id as number;
    const { id, token } = (await admin.post(`/sites/${siteId}/agent-tokens`, {})).body.data;
    const checkIn = { siteId, hostname: 'gw1', services: {} };
    await settled();
    expect((await onPeer('POST', '/agents', token, checkIn)).statusCode).toBe(200);
    await changeAndHear(async () =>
      expect((await admin.delete(`/sites/${siteId}/agent-tokens/${id}`)).status).toBe(204),
    );
    expect((await onPeer('POST', '/agents', token, checkIn)).statusCode).toBe(401);
  });

  it('a key whose other columns changed (its last use) stays cached: bookkeeping sends no notification', async () => {
    const { id, key } = await newKey(user);
    await settled();
    expect((await onPeer('GET', '/session', key)).statusCode).toBe(200);
    let clears = 0;
    peer.services.principals.onClear(() => (clears += 1));
    await test.manager.services.ctx.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date().toISOString(), description: 'renamed' })
      .where('id', '=', id)
      .execute();
    await settled();
    expect(clears).toBe(1); // the barrier's own notification, and nothing before it
  });
});
