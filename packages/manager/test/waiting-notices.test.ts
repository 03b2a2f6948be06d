import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';

interface Notice {
  action: string | null;
  message: string;
  owner: string | null;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  evidence: Record<string, unknown> | null;
}

const notices = async (client: ManagerClient, action: string): Promise<Notice[]> =>
  ((await client.get('/notifications?limit=100')).body.data as Notice[]).filter((n) => n.action === action);

describe('what waits for people: registrations for administrators, shared containers for users', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let second: ManagerClient;
  let paula: ManagerClient;
  let quinn: ManagerClient;
  let siteId: number;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    second = await userClient(test, admin, 'second');
    const secondNumber = (await admin.get('/users')).body.data.find(
      (u: { uid: string }) => u.uid === 'second',
    ).uidNumber;
    await admin.put(`/users/${secondNumber}`, { groupIds: [2000, 2001] });
    paula = await userClient(test, admin, 'paula');
    quinn = await userClient(test, admin, 'quinn');
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
  });
  afterAll(() => test?.close());

  it('a self-registration that waits is announced to every active administrator and counted', async () => {
    expect((await admin.get('/users/pending/count')).body.data).toEqual({ count: 0 });
    const registered = await test.client().register({ uid: 'newcomer' });
    expect(registered.body.data.status).toBe('pending');

    for (const client of [admin, second]) {
      const [notice] = await notices(client, 'user.pending');
      expect(notice?.message).toContain('newcomer registered and waits for approval');
      expect(notice?.acknowledgedAt).toBeNull();
    }
    expect(await notices(paula, 'user.pending')).toEqual([]);
    expect((await admin.get('/users/pending/count')).body.data).toEqual({ count: 1 });
    expect((await paula.get('/users/pending/count')).status).toBe(403);

    const uidNumber = (await admin.get('/users')).body.data.find(
      (u: { uid: string }) => u.uid === 'newcomer',
    ).uidNumber;
    await admin.put(`/users/${uidNumber}`, { status: 'active' });
    expect((await admin.get('/users/pending/count')).body.data).toEqual({ count: 0 });
    // The decision settles every administrator's notice, not only the approver's.
    for (const client of [admin, second]) {
      const [notice] = await notices(client, 'user.pending');
      expect(notice?.acknowledgedAt).not.toBeNull();
      expect(notice).toMatchObject({ acknowledgedBy: 'admin' });
    }
  });

  it('deleting a waiting account settles the notices about it; other waiting accounts keep theirs', async () => {
    for (const uid of ['gone', 'stays']) await test.client().register({ uid });
    const numberOf = async (uid: string) =>
      (await admin.get('/users')).body.data.find((u: { uid: string }) => u.uid === uid).uidNumber as number;
    const [gone, stays] = [await numberOf('gone'), await numberOf('stays')];
    expect((await second.delete(`/users/${gone}`)).status).toBe(204);
    const about = async (uidNumber: number) =>
      (await notices(admin, 'user.pending')).find((n) => n.evidence?.uidNumber === uidNumber);
    expect(await about(gone)).toMatchObject({ acknowledgedBy: 'second' });
    expect((await about(stays))?.acknowledgedAt).toBeNull();
    await admin.put(`/users/${stays}`, { status: 'suspended' });
    expect((await about(stays))?.acknowledgedAt).not.toBeNull();
  });

  it('a registration refused by validation leaves no notice behind', async () => {
    const before = (await notices(admin, 'user.pending')).length;
    const refused = await test.client().post('/auth/register', {
      uid: 'Bad Name!',
      givenName: 'B',
      sn: 'N',
      mail: 'bad@example.test',
      userPassword: 'correct horse',
    });
    expect(refused.body.error).toBeDefined();
    expect((await notices(admin, 'user.pending')).length).toBe(before);
  });

  it('sharing a container tells the new collaborator once, not the one who shared it', async () => {
    const created = await paula.post(`/sites/${siteId}/containers`, {
      hostname: 'shared1',
      template: 'debian:12',
      collaborators: ['quinn'],
    });
    expect(created.status).toBe(201);
    const containerId = created.body.data.containerId;
    const [atCreate] = await notices(quinn, 'container.shared');
    expect(atCreate?.message).toBe('paula shared shared1 with you.');
    expect(atCreate?.evidence).toEqual({ siteId, containerId });
    expect(await notices(paula, 'container.shared')).toEqual([]);

    const path = `/sites/${siteId}/containers/${containerId}/collaborators`;
    expect((await paula.post(path, { username: 'quinn' })).status).toBe(201);
    expect(await notices(quinn, 'container.shared')).toHaveLength(1);

    expect((await admin.post(path, { username: 'second' })).status).toBe(201);
    const [byAdmin] = await notices(second, 'container.shared');
    expect(byAdmin?.message).toBe('admin shared shared1 with you.');
  });
});
