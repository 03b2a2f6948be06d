import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, type ManagerClient, type TestManager, startManager } from './helpers.ts';
import { startMailSink } from './mail-sink.ts';

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

async function sessionRows(test: TestManager): Promise<number> {
  const row = await test.manager.database.db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('anonymous CSRF tokens', () => {
  let test: TestManager;
  beforeAll(async () => {
    test = await startManager();
    await adminClient(test);
  });
  afterAll(() => test?.close());

  it('leave the sessions table as it was, however many are handed out', async () => {
    const before = await sessionRows(test);
    for (let i = 0; i < 200; i++) {
      const response = await test.client().get('/csrf-token');
      expect(response.status).toBe(200);
      expect(response.body.data.csrfToken).toEqual(expect.any(String));
    }
    expect(await sessionRows(test)).toBe(before);
  });

  it('give one browser the same token until it signs in, then a token bound to its session', async () => {
    const client = test.client();
    const first = (await client.get('/csrf-token')).body.data.csrfToken;
    expect((await client.get('/csrf-token')).body.data.csrfToken).toBe(first);
    expect((await client.get('/session')).status).toBe(401);
    expect((await client.login('admin')).status).toBe(200);
    const bound = client.defaultHeaders['x-csrf-token'];
    expect(bound).not.toBe(first);
    expect((await client.post('/apikeys', {})).status).toBe(201);
    // The token a browser had before signing in is no good for the session.
    const stale = await client.post('/apikeys', {}, { headers: { 'x-csrf-token': first } });
    expect(stale.body.error.code).toBe('csrf_invalid');
  });

  it('treat a forged or tampered pre-session cookie as none', async () => {
    for (const cookie of ['p.forged', 'p.', 'p.v1:AAAA:BBBB:CCCC']) {
      const response = await test
        .client()
        .get('/csrf-token', { headers: { cookie: `connect.sid=${cookie}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('set-cookie')).toMatch(/^connect\.sid=p\./);
    }
  });
});

describe('password-reset mail', () => {
  let test: TestManager;
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  beforeAll(async () => {
    sink = await startMailSink({ held: true });
    test = await startManager();
    const admin = await adminClient(test);
    await admin.put('/settings', { smtpUrl: sink.url, smtpNoreplyAddress: 'noreply@example.test' });
  });
  afterAll(async () => {
    sink?.release();
    await test?.close();
    await sink?.close();
  });

  it('is sent in the background: the answer waits for no mail server and is the same for every account', async () => {
    const known = await test.client().post('/auth/password-reset/request', { usernameOrEmail: 'admin' });
    const unknown = await test.client().post('/auth/password-reset/request', { usernameOrEmail: 'nobody' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.text).toBe(unknown.text);
    expect(sink.messages).toEqual([]);
    sink.release();
    const mail = await sink.next('admin@example.test');
    expect(mail.text).toContain('/reset-password/');
  }, 10_000);
});

describe('quotas on registration and password-reset requests', () => {
  let test: TestManager;
  let admin: ManagerClient;
  beforeAll(async () => {
    test = await startManager({ TRUST_PROXY: '127.0.0.1', QUOTA_PER_ADDRESS: '3', QUOTA_PER_ACCOUNT: '2' });
    admin = await adminClient(test);
  });
  afterAll(() => test?.close());

  const register = (uid: string, address: string, mail = `${uid}@example.test`) =>
    test
      .client()
      .post(
        '/auth/register',
        { uid, givenName: 'Q', sn: 'Uota', mail, userPassword: 'correct horse' },
        from(address),
      );
  const reset = (usernameOrEmail: string, address: string) =>
    test.client().post('/auth/password-reset/request', { usernameOrEmail }, from(address));
  const expectLimited = (response: Awaited<ReturnType<typeof reset>>) => {
    expect(response.status).toBe(429);
    expect(response.body.error).toEqual({ code: 'rate_limited', message: expect.any(String) });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  };

  it('limits registrations per client address', async () => {
    for (const uid of ['reg1', 'reg2', 'reg3'])
      expect((await register(uid, '198.51.100.1')).status).toBe(201);
    expectLimited(await register('reg4', '198.51.100.1'));
    expect((await register('reg4', '198.51.100.2')).status).toBe(201);
    const users = (await admin.get('/users')).body.data.map((user: { uid: string }) => user.uid);
    expect(users).toEqual(['admin', 'reg1', 'reg2', 'reg3', 'reg4']);
  });

  it('limits registrations per e-mail address', async () => {
    expect((await register('twice', '198.51.100.3', 'same@example.test')).status).toBe(201);
    expect((await register('twice2', '198.51.100.4', 'same@example.test')).status).toBe(409);
    expectLimited(await register('twice3', '198.51.100.5', 'same@example.test'));
  });

  it('limits reset requests per account, known or not, and per client address', async () => {
    for (const name of ['admin', 'ghost']) {
      expect((await reset(name, '198.51.100.10')).status).toBe(200);
      expect((await reset(name, '198.51.100.11')).status).toBe(200);
      expectLimited(await reset(name, '198.51.100.12'));
    }
    // 198.51.100.12 asked twice above (refused for those accounts, but counted for the address).
    expect((await reset('someone-else', '198.51.100.12')).status).toBe(200);
    expectLimited(await reset('another', '198.51.100.12'));
  });
});
