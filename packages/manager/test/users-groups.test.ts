import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startManager, userClient, type ManagerClient, type TestManager } from './helpers.ts';

describe('users and groups administration', () => {
  let test: TestManager;
  let admin: ManagerClient;

  beforeAll(async () => {
    test = await startManager();
    admin = await adminClient(test);
  });
  afterAll(() => test.close());

  it('creates a user with groups, derived cn and pending status by default', async () => {
    const response = await admin.post('/users', {
      uid: 'bob',
      givenName: 'Bob',
      sn: 'Builder',
      mail: 'Bob@Example.test',
      userPassword: 'long password',
      groupIds: [2000],
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      uidNumber: 2001,
      uid: 'bob',
      givenName: 'Bob',
      sn: 'Builder',
      cn: 'Bob Builder',
      mail: 'bob@example.test',
      status: 'pending',
      groups: [{ gidNumber: 2000, cn: 'ldapusers', isAdmin: false }],
      isAdmin: false,
    });
    expect(response.text).not.toMatch(/password|argon2/i);
  });

  it('reads, updates (partial; blank password keeps it) and lists users', async () => {
    const updated = await admin.put('/users/2001', {
      status: 'active',
      givenName: 'Robert',
      userPassword: '',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      givenName: 'Robert',
      cn: 'Robert Builder',
      status: 'active',
      sn: 'Builder',
    });
    expect((await test.client().login('bob', 'long password')).status).toBe(200);

    const promoted = await admin.put('/users/2001', { groupIds: [2000, 2001] });
    expect(promoted.body.data.isAdmin).toBe(true);
    const shown = await admin.get('/users/2001');
    expect(shown.body.data.groups.map((group: { cn: string }) => group.cn)).toEqual([
      'ldapusers',
      'sysadmins',
    ]);
    const list = await admin.get('/users');
    expect(list.body.data.map((user: { uid: string }) => user.uid)).toEqual(['admin', 'bob']);
  });

  it('answers 404 for unknown users, 400 for a non-numeric id or unknown group, 409 for duplicates', async () => {
    expect((await admin.get('/users/9999')).status).toBe(404);
    expect((await admin.put('/users/9999', { givenName: 'x' })).status).toBe(404);
    expect((await admin.delete('/users/9999')).status).toBe(404);
    const nonNumeric = await admin.get('/users/abc');
    expect(nonNumeric.status).toBe(400);
    expect(nonNumeric.body.error.code).toBe('invalid_request');
    const unknownGroup = await admin.put('/users/2001', { groupIds: [4242] });
    expect(unknownGroup.status).toBe(400);
    expect(unknownGroup.body.error.fields).toHaveProperty('groupIds');
    const duplicate = await admin.post('/users', {
      uid: 'bob2',
      givenName: 'B',
      sn: 'B',
      mail: 'bob@example.test',
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatchObject({ code: 'conflict', fields: { mail: expect.any(String) } });
    const invalid = await admin.post('/users', {
      uid: '9lives',
      givenName: 'B',
      sn: 'B',
      mail: 'x@example.test',
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.fields).toHaveProperty('uid');
  });

  it('deletes a user and their API keys stop working', async () => {
    const carol = await userClient(test, admin, 'carol');
    const key = (await carol.post('/apikeys', { description: 'laptop' })).body.data.key;
    const me = await test.client().get('/session', { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    const carolNumber = (await admin.get('/users')).body.data.find(
      (user: { uid: string }) => user.uid === 'carol',
    ).uidNumber;
    expect((await admin.delete(`/users/${carolNumber}`)).status).toBe(204);
    expect(
      (await test.client().get('/session', { headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(401);
  });

  it('manages groups with user counts', async () => {
    const created = await admin.post('/groups', { cn: 'developers' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ gidNumber: 2002, cn: 'developers', isAdmin: false });
    const explicit = await admin.post('/groups', { gidNumber: 5000, cn: 'ops', isAdmin: true });
    expect(explicit.body.data).toEqual({ gidNumber: 5000, cn: 'ops', isAdmin: true });

    const list = await admin.get('/groups');
    expect(list.body.data).toEqual([
      { gidNumber: 2000, cn: 'ldapusers', isAdmin: false, userCount: 2 },
      { gidNumber: 2001, cn: 'sysadmins', isAdmin: true, userCount: 2 },
      { gidNumber: 2002, cn: 'developers', isAdmin: false, userCount: 0 },
      { gidNumber: 5000, cn: 'ops', isAdmin: true, userCount: 0 },
    ]);
    expect((await admin.get('/groups/2001')).body.data.userCount).toBe(2);

    const renamed = await admin.put('/groups/2002', { cn: 'devs' });
    expect(renamed.body.data).toEqual({ gidNumber: 2002, cn: 'devs', isAdmin: false });
    expect((await admin.post('/groups', { cn: 'devs' })).status).toBe(409);
    expect((await admin.post('/groups', { cn: 'Bad Group' })).status).toBe(422);
    expect((await admin.delete('/groups/2002')).status).toBe(204);
    expect((await admin.get('/groups/2002')).status).toBe(404);
    expect((await admin.put('/groups/2002', { cn: 'x' })).status).toBe(404);
  });
});
