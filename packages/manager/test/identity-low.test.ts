import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, ManagerClient, startManager, userClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { linkIn, startMailSink } from './mail-sink.ts';

const OFF_SITE = [
  '/\t/evil.example',
  '/%09/evil.example',
  '//evil.example',
  '/\\evil.example',
  'https://evil.example',
  '/\n/evil.example',
  ' //evil.example',
  '\\\\evil.example',
];

describe('redirect after sign-in', () => {
  let test: TestManager;
  beforeAll(async () => {
    test = await startManager();
    await adminClient(test);
  });
  afterAll(() => test?.close());

  it('keeps only paths on this site', async () => {
    for (const redirect of OFF_SITE) {
      const login = await test
        .client()
        .post('/auth/login', { username: 'admin', password: 'correct horse', redirect });
      expect(login.body.data.redirect, JSON.stringify(redirect)).toBe('/');
    }
    const local = await test.client().post('/auth/login', {
      username: 'admin',
      password: 'correct horse',
      redirect: '/sites/1/containers?user[0]=a#top',
    });
    expect(local.body.data.redirect).toBe('/sites/1/containers?user[0]=a#top');
  });
});

describe('password reset', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  beforeAll(async () => {
    sink = await startMailSink();
    test = await startManager({ PUBLIC_URL: 'https://m.example.test' });
    admin = await adminClient(test);
    await admin.put('/settings', { smtpUrl: sink.url, smtpNoreplyAddress: 'noreply@example.test' });
    await userClient(test, admin, 'kim');
  });
  afterAll(async () => {
    await test?.close();
    await sink?.close();
  });

  const resetWith = async (body: Record<string, unknown>) => {
    await test.client().post('/auth/password-reset/request', { usernameOrEmail: 'kim' });
    const link = linkIn(await sink.next('kim@example.test'), 'https://m.example.test/reset-password/');
    const token = link.split('/').pop()!;
    return test.client().post(`/auth/password-reset/${token}`, {
      password: 'a new password',
      confirmPassword: 'a new password',
      ...body,
    });
  };
  const keyWorks = async (key: string) =>
    (await ManagerClient.withKey(`${test.baseUrl}/api/v1`, key).get('/session')).status === 200;

  it("revokes the user's API keys by default", async () => {
    const kim = test.client();
    await kim.login('kim');
    const key = (await kim.post('/apikeys', {})).body.data.key as string;
    expect(await keyWorks(key)).toBe(true);
    expect((await resetWith({})).status).toBe(200);
    expect(await keyWorks(key)).toBe(false);
  });

  it('keeps the API keys when the reset says revokeApiKeys: false', async () => {
    const kim = test.client();
    await kim.login('kim', 'a new password');
    const key = (await kim.post('/apikeys', {})).body.data.key as string;
    expect((await resetWith({ revokeApiKeys: false })).status).toBe(200);
    expect(await keyWorks(key)).toBe(true);
  });
});

describe('sharing a container', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let url: string;
  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    const siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    const id = (
      await admin.post(`/sites/${siteId}/containers`, { hostname: 'share1', template: 'debian:12' })
    ).body.data.containerId;
    url = `/sites/${siteId}/containers/${id}/collaborators`;
    await userClient(test, admin, 'active1');
    await test.client().register({ uid: 'waiting1' });
    const suspended = (
      await admin.post('/users', {
        uid: 'gone1',
        givenName: 'Gone',
        sn: 'One',
        mail: 'gone1@example.test',
        status: 'suspended',
      })
    ).body.data;
    expect(suspended.status).toBe('suspended');
  });
  afterAll(() => test?.close());

  it('accepts active users only, and answers the same 404 for pending, suspended and unknown names', async () => {
    expect((await admin.post(url, { username: 'active1' })).body.data).toEqual({
      collaborators: ['active1'],
    });
    const answers = [];
    for (const username of ['waiting1', 'gone1', 'nobody1']) {
      const response = await admin.post(url, { username });
      expect(response.status, username).toBe(404);
      answers.push(JSON.stringify(response.body).replace(username, '<name>'));
    }
    expect(new Set(answers).size).toBe(1);
    expect(JSON.parse(answers[0]!).error.code).toBe('user_not_found');
    expect((await admin.get(url)).body.data).toEqual({ collaborators: ['active1'] });
  });
});
