import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '@app/server-kit';
import { htmlHeaderProblems, walkGetRoutes } from '@app/server-kit/testing/html-headers';
import { expectPrecompressed, writePrecompressed } from '@app/server-kit/testing/precompressed';
import { adminClient, startManager, userClient, type ManagerClient, type TestManager } from './helpers.ts';

const ADMIN_ROUTES: [string, string, unknown?][] = [
  ['GET', '/users'],
  ['POST', '/users', { uid: 'x', givenName: 'x', sn: 'x', mail: 'x@example.test' }],
  ['GET', '/users/2000'],
  ['PUT', '/users/2000', { status: 'suspended' }],
  ['DELETE', '/users/2000'],
  ['POST', '/users/invite', { email: 'x@example.test' }],
  ['POST', '/users/email-all', { subject: 's', message: 'm' }],
  ['GET', '/groups'],
  ['POST', '/groups', { cn: 'x' }],
  ['GET', '/groups/2001'],
  ['PUT', '/groups/2001', { isAdmin: false }],
  ['DELETE', '/groups/2001'],
  ['GET', '/settings'],
  ['PUT', '/settings', { bannerMessage: 'x' }],
];

describe('security', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let user: ManagerClient;

  beforeAll(async () => {
    test = await startManager();
    admin = await adminClient(test);
    user = await userClient(test, admin, 'frank');
  });
  afterAll(() => test.close());

  it('answers 403 csrf_invalid to session writes with a missing or wrong token', async () => {
    const missing = await user.post('/apikeys', {}, { headers: { 'x-csrf-token': '' } });
    expect(missing.status).toBe(403);
    expect(missing.body.error.code).toBe('csrf_invalid');
    const wrong = await user.post('/apikeys', {}, { headers: { 'x-csrf-token': 'forged-token' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('csrf_invalid');
    const otherSession = await admin.refreshCsrf();
    const crossed = await user.post('/apikeys', {}, { headers: { 'x-csrf-token': otherSession } });
    expect(crossed.body.error.code).toBe('csrf_invalid');
    expect((await user.get('/apikeys')).body.data).toEqual([]);
    // The token stays valid for the session: the same one works twice.
    expect((await user.post('/apikeys', {})).status).toBe(201);
    expect((await user.post('/apikeys', {})).status).toBe(201);
  });

  it('checks CSRF before the body, so a forged write learns nothing about validation', async () => {
    const response = await admin.post('/users', { nonsense: true }, { headers: { 'x-csrf-token': 'bad' } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('csrf_invalid');
  });

  it('answers 403 forbidden to a non-admin on every admin route, and 401 without credentials', async () => {
    for (const [method, path, body] of ADMIN_ROUTES) {
      const forbidden = await user.request(method, path, { body });
      expect(forbidden.status, `${method} ${path}`).toBe(403);
      expect(forbidden.body.error.code).toBe('forbidden');
      const anonymous = await test.client().request(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
    }
    // Nothing changed.
    expect((await admin.get('/groups/2001')).body.data.isAdmin).toBe(true);
    expect((await admin.get('/users/2000')).body.data.status).toBe('active');
  });

  it('never returns a password hash, an API key hash, a session id or a token hash', async () => {
    const bodies: string[] = [];
    const key = (await user.post('/apikeys', { description: 'scan' })).body.data.key as string;
    for (const path of [
      '/users',
      '/users/2000',
      '/users/2001',
      '/groups',
      '/apikeys',
      '/settings',
      '/session',
    ]) {
      bodies.push((await admin.get(path)).text, (await user.get(path)).text);
    }
    const secrets = await test.manager.database.db.selectFrom('users').select('password_hash').execute();
    const keyHashes = await test.manager.database.db.selectFrom('api_keys').select('key_hash').execute();
    const sessions = await test.manager.database.db.selectFrom('sessions').select('id_hash').execute();
    const everything = bodies.join('\n');
    for (const value of [
      ...secrets.map((row) => row.password_hash!),
      ...keyHashes.map((row) => row.key_hash),
      ...sessions.map((row) => row.id_hash),
      key,
    ]) {
      expect(everything).not.toContain(value);
    }
    expect(everything).not.toMatch(/argon2|password_hash|key_hash/);
  });

  it('stores API keys and sessions as hashes only', async () => {
    const key = (await user.post('/apikeys', {})).body.data.key as string;
    const rows = await test.manager.database.db.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(key);
    const cookie = user.cookie('connect.sid')!;
    const sessions = await test.manager.database.db.selectFrom('sessions').selectAll().execute();
    expect(JSON.stringify(sessions)).not.toContain(cookie);
  });

  it('answers unknown routes with 404 not_found in the envelope and hides internals', async () => {
    const response = await test.client().get('/no-such-route');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
    const malformed = await admin.post('/groups', '{"cn":', {
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.text).not.toMatch(/at .*\.ts|node_modules|stack/);
  });
});

describe('rate limiting and forwarded headers', () => {
  it('blocks an address with 429 after repeated failures, whatever X-Forwarded-For it forges', async () => {
    const test = await startManager({
      RATE_LIMIT_FAILURES: '5',
      RATE_LIMIT_WINDOW_S: '60',
      RATE_LIMIT_BLOCK_S: '60',
    });
    try {
      const client = test.client();
      for (let i = 0; i < 5; i++) {
        const response = await client.get('/session', { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
        expect(response.status).toBe(401);
      }
      const blocked = await client.get('/health', { headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error.code).toBe('rate_limited');
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await test.close();
    }
  });

  it('believes X-Forwarded-For only from a proxy named in TRUST_PROXY', async () => {
    const test = await startManager({ RATE_LIMIT_FAILURES: '3', TRUST_PROXY: '127.0.0.1' });
    try {
      const client = test.client();
      for (let i = 0; i < 3; i++)
        await client.get('/session', { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect((await client.get('/health', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(
        429,
      );
      expect((await client.get('/health', { headers: { 'x-forwarded-for': '203.0.113.10' } })).status).toBe(
        200,
      );
    } finally {
      await test.close();
    }
  });
});

describe('security headers (issue 32)', () => {
  it('walks every GET route: each answer, and each HTML page (the web client, the API docs), has its headers', async () => {
    // The web client's build (a page of its own here): the manager serves it and its files.
    const webRoot = mkdtempSync(join(tmpdir(), 'manager-web-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(
      join(webRoot, 'index.html'),
      '<!doctype html><title>Manager</title><script src="/assets/app.js"></script>',
    );
    writeFileSync(join(webRoot, 'assets', 'app.js'), 'console.log("manager")');
    const bundle = `console.log(${JSON.stringify('manager '.repeat(400))})`;
    writePrecompressed(join(webRoot, 'assets', 'main.js'), bundle);
    const test = await startManager({}, { webRoot });
    try {
      // The build's .br and .gz copies go to the browsers that take them (issue 34), still cached for a year.
      const headers = await expectPrecompressed(`${test.baseUrl}/assets/main.js`, bundle);
      expect(headers.get('cache-control')).toContain('immutable');
      expect(headers.get('content-type')).toMatch(/javascript/);
      const answers = await walkGetRoutes(test.baseUrl, routesOf(test.manager.app));
      expect(answers.flatMap((answer) => htmlHeaderProblems(answer))).toEqual([]);
      const pages = answers
        .filter((answer) => answer.type.startsWith('text/html'))
        .map((answer) => answer.route);
      expect(pages).toEqual(expect.arrayContaining(['/', '/*', '/api/v1/docs']));
      expect(answers.length).toBeGreaterThan(50);
    } finally {
      await test.close();
    }
  });
});
