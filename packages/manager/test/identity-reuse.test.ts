import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@app/server-kit/testing';
import { adminClient, ManagerClient, userClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';

/**
 * Identity is the immutable uidNumber: a user deleted and a newcomer registered under the same name
 * share nothing — containers, shares, jobs and their logs, notifications, resource requests.
 */
describe('identity reuse', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let tool: TestClient;
  let siteId: number;
  let aliceUid: number;
  let bobUid: number;
  let aliceJob: number;
  let sharedId: number;
  let ownedId: number;

  const uidOf = async (uid: string): Promise<number> =>
    (await admin.get('/users')).body.data.find((user: { uid: string }) => user.uid === uid).uidNumber;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    const key = (await admin.post('/apikeys', {})).body.data.key as string;
    tool = ManagerClient.withKey(`${test.baseUrl}/api/v1`, key);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });

    const alice = await userClient(test, admin, 'alice');
    await userClient(test, admin, 'bob');
    aliceUid = await uidOf('alice');
    bobUid = await uidOf('bob');
    const own = await alice.post(`/sites/${siteId}/containers`, {
      hostname: 'alice1',
      template: 'debian:12',
    });
    expect(own.status).toBe(201);
    ownedId = own.body.data.containerId;
    aliceJob = own.body.data.jobId;
    expect(await jobEnds(alice, aliceJob)).toBe('success');
    const shared = await admin.post(`/sites/${siteId}/containers`, {
      hostname: 'bob1',
      template: 'debian:12',
      username: 'bob',
      collaborators: ['alice'],
    });
    sharedId = shared.body.data.containerId;
    await jobEnds(admin, shared.body.data.jobId);
    const ctid = (await admin.get(`/sites/${siteId}/containers/${ownedId}`)).body.data.containerId;
    for (const body of [
      { source: 'watch', severity: 'info', message: 'named', owner: 'alice' },
      { source: 'watch', severity: 'info', message: 'resolved', node: 'sim1', ctid },
    ]) {
      expect((await tool.post('/notifications', body)).status).toBe(201);
    }
    const [first] = (await alice.get('/notifications')).body.data;
    await alice.post(`/notifications/${first.id}/ack`);
    const request = await alice.post('/resource-requests', {
      siteId,
      hostname: 'alice1',
      resourceType: 'memory',
      value: 8192,
    });
    expect(request.body.data).toMatchObject({ username: 'alice', status: 'pending' });
  });
  afterAll(() => test?.close());

  it('refuses to delete a user who still owns containers (409 has_containers naming them)', async () => {
    const refused = await admin.delete(`/users/${aliceUid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('has_containers');
    expect(refused.body.error.message).toContain('1 container');
    expect(refused.body.error.message).toContain('alice1');
    const unknown = await admin.delete(`/users/${aliceUid}?reassignTo=nobody`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('user_not_found');
    const self = await admin.delete(`/users/${aliceUid}?reassignTo=alice`);
    expect(self.status).toBe(400);
    expect((await admin.get(`/users/${aliceUid}`)).status).toBe(200);
  });

  it('deletes the user when the admin reassigns the containers, in one step', async () => {
    const deleted = await admin.delete(`/users/${aliceUid}?reassignTo=bob`);
    expect(deleted.status).toBe(204);
    expect((await admin.get(`/users/${aliceUid}`)).status).toBe(404);
    const moved = (await admin.get(`/sites/${siteId}/containers/${ownedId}`)).body.data;
    expect(moved.owner).toBe('bob');
    // The old user's share of bob1 went with the account.
    expect((await admin.get(`/sites/${siteId}/containers/${sharedId}`)).body.data.collaborators).toEqual([]);
  });

  it('gives a newcomer with the old name a new uidNumber and none of the old data', async () => {
    const newcomer = await userClient(test, admin, 'alice');
    const newUid = await uidOf('alice');
    expect(newUid).not.toBe(aliceUid);
    expect(newUid).toBeGreaterThan(bobUid);
    expect((await newcomer.get(`/sites/${siteId}/containers`)).body.data).toEqual([]);
    expect((await newcomer.get(`/sites/${siteId}/containers/${sharedId}`)).status).toBe(404);
    expect((await newcomer.get(`/sites/${siteId}/containers/${sharedId}/collaborators`)).status).toBe(404);
    expect((await newcomer.get(`/jobs/${aliceJob}`)).status).toBe(404);
    expect((await newcomer.get(`/jobs/${aliceJob}/status`)).status).toBe(404);
    expect((await newcomer.get(`/notifications`)).body.data).toEqual([]);
    expect((await newcomer.post('/notifications/all/ack')).body.data).toEqual({ acknowledged: 0 });
    expect((await newcomer.get('/resource-requests')).body.data).toEqual([]);
    expect((await newcomer.get('/resource-requests/count')).body.data).toEqual({ count: 0 });
    const listed = await admin.get(`/sites/${siteId}/containers?user[0]=alice`);
    expect(listed.body.data).toEqual([]);
  });

  it('keeps answering the old username for references to the deleted user', async () => {
    expect((await admin.get(`/jobs/${aliceJob}`)).body.data.createdBy).toBe('alice');
    const requests = (await admin.get('/resource-requests')).body.data;
    expect(requests.map((request: { username: string }) => request.username)).toEqual(['alice']);
  });

  it('never hands out a uidNumber again, even that of the last user deleted', async () => {
    const carol = await admin.post('/users', {
      uid: 'carol',
      givenName: 'Carol',
      sn: 'C',
      mail: 'carol@example.test',
    });
    const carolUid = carol.body.data.uidNumber;
    expect((await admin.delete(`/users/${carolUid}`)).status).toBe(204);
    const dave = await admin.post('/users', {
      uid: 'dave',
      givenName: 'Dave',
      sn: 'D',
      mail: 'd@example.test',
    });
    expect(dave.body.data.uidNumber).toBe(carolUid + 1);
  });

  it('lets a container owner be deleted once the containers are gone, and answers 404 for unknown users', async () => {
    expect((await admin.delete(`/users/${bobUid}`)).status).toBe(409);
    for (const id of [ownedId, sharedId]) {
      expect((await admin.delete(`/sites/${siteId}/containers/${id}`)).status).toBe(200);
    }
    expect((await admin.delete(`/users/${bobUid}`)).status).toBe(204);
    expect((await admin.delete(`/users/${bobUid}`)).status).toBe(404);
  });
});
