import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_REDIRECTS } from '@app/server-kit/testing';
import { adminClient, startManager, type ManagerClient, type TestManager } from './helpers.ts';

describe('auth: register, login, session, logout', () => {
  let test: TestManager;
  let admin: ManagerClient;

  beforeAll(async () => {
    test = await startManager();
  });
  afterAll(() => test.close());

  it('makes the first registered user an active administrator in sysadmins', async () => {
    const client = test.client();
    const response = await client.register({ uid: 'root1' });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({ uid: 'root1', status: 'active', message: expect.any(String) });
    admin = client;
    const login = await admin.login('root1');
    expect(login.status).toBe(200);
    expect(login.body.data).toEqual({ user: 'root1', isAdmin: true, redirect: '/' });
    const users = await admin.get('/users');
    expect(users.body.data[0]).toMatchObject({
      uidNumber: 2000,
      uid: 'root1',
      cn: 'Root1 Tester',
      isAdmin: true,
      groups: [
        { gidNumber: 2000, cn: 'ldapusers', isAdmin: false },
        { gidNumber: 2001, cn: 'sysadmins', isAdmin: true },
      ],
    });
  });

  it('registers later users as pending, and a pending user cannot log in', async () => {
    const client = test.client();
    const response = await client.register({ uid: 'waiting' });
    expect(response.status).toBe(201);
    expect(response.body.data.status).toBe('pending');
    const login = await client.login('waiting');
    expect(login.status).toBe(403);
    expect(login.body.error.code).toBe('account_inactive');
  });

  it('logs in an approved user and then refuses a suspended one', async () => {
    const users = await admin.get('/users');
    const waiting = users.body.data.find((user: { uid: string }) => user.uid === 'waiting');
    expect(waiting.uidNumber).toBe(2001);
    expect((await admin.put(`/users/${waiting.uidNumber}`, { status: 'active' })).status).toBe(200);
    const client = test.client();
    expect((await client.login('waiting')).status).toBe(200);
    expect((await client.get('/session')).body.data).toEqual({ user: 'waiting', isAdmin: false });

    expect((await admin.put(`/users/${waiting.uidNumber}`, { status: 'disabled' })).body.data.status).toBe(
      'suspended',
    );
    expect((await client.get('/session')).status).toBe(401);
    const again = await test.client().login('waiting');
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe('account_inactive');
  });

  it('answers 400 invalid_request when username or password is missing', async () => {
    const response = await test.client().post('/auth/login', { username: 'root1' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'invalid_request',
      fields: { password: 'is required' },
    });
  });

  it('answers 401 invalid_credentials for a wrong password or an unknown user', async () => {
    for (const body of [
      { username: 'root1', password: 'wrong password' },
      { username: 'nobody', password: 'whatever1' },
    ]) {
      const response = await test.client().post('/auth/login', body);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('invalid_credentials');
    }
  });

  it('gives a new session id at login and keeps redirects local', async () => {
    const client = test.client();
    await client.get('/csrf-token');
    const anonymous = client.cookie('connect.sid');
    expect(anonymous).toBeTruthy();
    const login = await client.post('/auth/login', {
      username: 'root1',
      password: 'correct horse',
      redirect: '/sites/1',
    });
    expect(login.body.data.redirect).toBe('/sites/1');
    expect(client.cookie('connect.sid')).not.toBe(anonymous);
    for (const redirect of HOSTILE_REDIRECTS) {
      const outside = await test.client().post('/auth/login', {
        username: 'root1',
        password: 'correct horse',
        redirect,
      });
      expect(outside.body.data.redirect, JSON.stringify(redirect)).toBe('/');
    }
  });

  it('answers 401 on /session without credentials', async () => {
    const response = await test.client().get('/session');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthorized');
  });

  it('logs out: the old session stops working', async () => {
    const client = test.client();
    await client.login('root1');
    const cookie = client.cookie('connect.sid');
    const response = await client.post('/auth/logout');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ loggedOut: true, logoutUrl: null });
    const replay = await test.client().get('/session', { headers: { cookie: `connect.sid=${cookie}` } });
    expect(replay.status).toBe(401);
  });

  it('validates registration fields: 400 for missing, 422 for rule breaks, 409 for duplicates', async () => {
    const client = test.client();
    const missing = await client.post('/auth/register', { uid: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('invalid_request');
    expect(missing.body.error.fields).toHaveProperty('mail');

    const bad = await client.post('/auth/register', {
      uid: 'Bad Name!',
      givenName: 'B',
      sn: 'N',
      mail: 'not-an-email',
      userPassword: 'short',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['mail', 'uid', 'userPassword']);

    const duplicate = await client.register({ uid: 'root1', mail: 'other@example.test' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatchObject({ code: 'conflict', fields: { uid: expect.any(String) } });
  });
});

describe('auth in production', () => {
  let test: TestManager;
  beforeAll(async () => {
    test = await startManager({ NODE_ENV: 'production' });
  });
  afterAll(() => test.close());

  it('has no development login and marks cookies secure', async () => {
    const dev = await test.client().post('/auth/dev', {});
    expect(dev.status).toBe(404);
    const health = await test.client().get('/health');
    expect(health.body.data.isDev).toBe(false);
    const csrf = await fetch(`${test.baseUrl}/api/v1/csrf-token`);
    expect(csrf.headers.get('set-cookie')).toMatch(/Secure/);
    expect(csrf.headers.get('set-cookie')).toMatch(/HttpOnly/);
  });

  it('still works end to end', async () => {
    const admin = await adminClient(test, 'prod');
    expect((await admin.get('/session')).body.data.user).toBe('prod');
  });
});
