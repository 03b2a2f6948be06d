import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminClient,
  startManager,
  uidNumberOf,
  userClient,
  type ManagerClient,
  type TestManager,
} from './helpers.ts';

const ADMINS = 2001;

describe('the last active administrator', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let adminNumber: number;

  beforeAll(async () => {
    test = await startManager();
    admin = await adminClient(test);
    adminNumber = await uidNumberOf(test, 'admin');
  });
  afterAll(() => test.close());

  const expectRefused = (response: {
    status: number;
    body: { error: { code: string; message: string } };
  }) => {
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('last_admin');
    expect(response.body.error.message).toMatch(/make another user an administrator first/i);
  };

  async function expectAdminUnchanged() {
    const user = (await admin.get(`/users/${adminNumber}`)).body.data;
    expect(user).toMatchObject({ status: 'active', isAdmin: true });
    expect(user.groups.map((group: { gidNumber: number }) => group.gidNumber)).toEqual([2000, ADMINS]);
    expect((await admin.get(`/groups/${ADMINS}`)).body.data).toMatchObject({ isAdmin: true, userCount: 1 });
  }

  it('can be neither suspended, demoted nor deleted, and nothing changes', async () => {
    // A member of the admin group who is not active does not count as another administrator.
    const pending = await admin.post('/users', {
      uid: 'waiting',
      givenName: 'W',
      sn: 'W',
      mail: 'waiting@example.test',
      groupIds: [2000, ADMINS],
    });
    expect(pending.body.data).toMatchObject({ status: 'pending', isAdmin: true });

    expectRefused(await admin.put(`/users/${adminNumber}`, { status: 'suspended' }));
    expectRefused(await admin.put(`/users/${adminNumber}`, { groupIds: [2000] }));
    expectRefused(await admin.delete(`/users/${adminNumber}`));
    expectRefused(await admin.put(`/groups/${ADMINS}`, { isAdmin: false }));
    expectRefused(await admin.delete(`/groups/${ADMINS}`));

    const groups = (await admin.get(`/groups/${ADMINS}`)).body.data;
    expect(groups).toMatchObject({ isAdmin: true, userCount: 2 });
    expect((await admin.delete(`/users/${pending.body.data.uidNumber}`)).status).toBe(204);
    await expectAdminUnchanged();
    // The refused suspension did not end the administrator's session.
    expect((await admin.get('/session')).status).toBe(200);
  });

  it('lets each of two active administrators be suspended, demoted or deleted', async () => {
    const second = await userClient(test, admin, 'second');
    const secondNumber = await uidNumberOf(test, 'second');
    const promote = () => admin.put(`/users/${secondNumber}`, { groupIds: [2000, ADMINS] });
    expect((await promote()).body.data.isAdmin).toBe(true);

    expect((await admin.put(`/users/${secondNumber}`, { status: 'suspended' })).status).toBe(200);
    expect((await admin.put(`/users/${secondNumber}`, { status: 'active' })).status).toBe(200);
    const demoted = await admin.put(`/users/${secondNumber}`, { groupIds: [2000] });
    expect(demoted.body.data.isAdmin).toBe(false);

    // Through groups: the second administrator is one by another admin group.
    const ops = (await admin.post('/groups', { cn: 'ops', isAdmin: true })).body.data.gidNumber;
    expect((await admin.put(`/users/${secondNumber}`, { groupIds: [2000, ops] })).status).toBe(200);
    expect((await second.login('second')).status).toBe(200);
    expect((await second.put(`/groups/${ADMINS}`, { isAdmin: false })).status).toBe(200);
    expectRefused(await second.put(`/groups/${ops}`, { isAdmin: false }));
    expectRefused(await second.delete(`/groups/${ops}`));
    expect((await second.put(`/groups/${ADMINS}`, { isAdmin: true })).status).toBe(200);
    expect((await second.delete(`/groups/${ops}`)).status).toBe(204);

    expect((await promote()).status).toBe(200);
    expect((await admin.delete(`/users/${secondNumber}`)).status).toBe(204);
    expectRefused(await admin.delete(`/users/${adminNumber}`));
    await expectAdminUnchanged();
  });

  it('keeps one when the two administrators are suspended at the same time', async () => {
    const users = test.manager.services.users;
    const created = await admin.post('/users', {
      uid: 'other',
      givenName: 'O',
      sn: 'O',
      mail: 'other@example.test',
      status: 'active',
      groupIds: [2000, ADMINS],
    });
    const pair = [adminNumber, created.body.data.uidNumber as number];
    for (let round = 0; round < 5; round++) {
      const outcomes = await Promise.allSettled(
        pair.map((uidNumber) => users.update(uidNumber, { status: 'suspended' })),
      );
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(refused.map((outcome) => (outcome.reason as { code: string }).code)).toEqual(['last_admin']);
      expect(await users.repo.countActiveAdmins()).toBe(1);
      const suspended = pair[outcomes.findIndex((outcome) => outcome.status === 'fulfilled')]!;
      await users.update(suspended, { status: 'active' });
    }
  });
});
