import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envReader } from '@app/server-kit';
import { readManagerConfig } from '../src/config.ts';
import { adminClient, startManager, type ManagerClient, type TestManager } from './helpers.ts';

const THROUGH_PROXY = { 'x-forwarded-for': '203.0.113.7' };

/** What an unknown route answers, for comparison with a refused development login. */
async function unknownRouteBody(test: TestManager) {
  const response = await test.client().post('/auth/no-such-route', {});
  return JSON.stringify(response.body).replace('/auth/no-such-route', '/auth/dev');
}

describe('development login not enabled', () => {
  let test: TestManager;
  beforeAll(async () => {
    test = await startManager();
    await adminClient(test);
  });
  afterAll(() => test.close());

  it('answers 404 like an unknown route and /health does not advertise it', async () => {
    const client = test.client();
    const response = await client.post('/auth/dev', {});
    expect(response.status).toBe(404);
    expect(JSON.stringify(response.body)).toBe(await unknownRouteBody(test));
    expect(client.cookie('connect.sid')).toBeUndefined();
    expect((await client.get('/health')).body.data.isDev).toBe(false);
  });
});

describe('development login enabled with DEV_LOGIN=true', () => {
  let test: TestManager;
  let admin: ManagerClient;
  beforeAll(async () => {
    test = await startManager({ DEV_LOGIN: 'true' });
  });
  afterAll(() => test.close());

  it('asks for the first (administrator) account to be registered first', async () => {
    const response = await test.client().post('/auth/dev', {});
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('register_first');
    admin = await adminClient(test);
  });

  it('signs a direct loopback caller in as a password-less non-admin dev account', async () => {
    const client = test.client();
    expect((await client.get('/health')).body.data.isDev).toBe(true);
    const response = await client.post('/auth/dev', {});
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ user: 'dev', isAdmin: false, redirect: '/' });
    expect((await client.get('/session')).body.data).toEqual({ user: 'dev', isAdmin: false });
    const dev = (await admin.get('/users')).body.data.find((user: { uid: string }) => user.uid === 'dev');
    expect(dev).toMatchObject({ status: 'active', isAdmin: false });
  });

  it('never signs in as an administrator or an account with a password', async () => {
    const passwordless = await admin.post('/users', {
      uid: 'opsadmin',
      givenName: 'Ops',
      sn: 'Admin',
      mail: 'ops@example.test',
      status: 'active',
      groupIds: [2000, 2001],
    });
    expect(passwordless.status).toBe(201);
    for (const username of ['admin', 'opsadmin']) {
      const client = test.client();
      const response = await client.post('/auth/dev', { username });
      expect(response.status, username).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
      expect((await client.get('/session')).status).toBe(401);
    }
  });

  it('is not there for a caller that came through a proxy', async () => {
    const client = test.client();
    const health = await client.get('/health', { headers: THROUGH_PROXY });
    expect(health.body.data.isDev).toBe(false);
    const response = await client.post('/auth/dev', {}, { headers: THROUGH_PROXY });
    expect(response.status).toBe(404);
    expect(JSON.stringify(response.body)).toBe(await unknownRouteBody(test));
    expect((await client.get('/session')).status).toBe(401);
  });
});

describe('development login configuration', () => {
  it('refuses to start with DEV_LOGIN=true in production', () => {
    expect(() =>
      readManagerConfig(envReader({ DEV_LOGIN: 'true', NODE_ENV: 'production', SECRET_KEY: 'k' })),
    ).toThrow(/DEV_LOGIN/);
  });
});
