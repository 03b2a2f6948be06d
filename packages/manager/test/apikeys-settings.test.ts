import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startManager, userClient, type ManagerClient, type TestManager } from './helpers.ts';

describe('API keys', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let user: ManagerClient;

  beforeAll(async () => {
    test = await startManager();
    admin = await adminClient(test);
    user = await userClient(test, admin, 'erin');
  });
  afterAll(() => test.close());

  it('shows the secret once, stores only a prefix, and authenticates Bearer calls without CSRF', async () => {
    const created = await user.post('/apikeys', { description: 'ci runner' });
    expect(created.status).toBe(201);
    const { key, warning, ...apiKey } = created.body.data;
    expect(warning).toMatch(/not be shown again/);
    expect(key.startsWith(apiKey.keyPrefix)).toBe(true);
    expect(apiKey).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      keyPrefix: expect.any(String),
      description: 'ci runner',
      lastUsedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const listed = await user.get('/apikeys');
    expect(listed.body.data).toEqual([apiKey]);
    expect(listed.text).not.toContain(key);
    expect((await user.get(`/apikeys/${apiKey.id}`)).body.data).toEqual(apiKey);

    const bearer = test.client();
    bearer.defaultHeaders.authorization = `Bearer ${key}`;
    expect((await bearer.get('/session')).body.data).toEqual({ user: 'erin', isAdmin: false });
    const viaKey = await bearer.post('/apikeys', { description: 'made with a key' });
    expect(viaKey.status).toBe(201);
    // Written in the background (at most once a minute per key), so wait for it.
    await expect
      .poll(async () => (await user.get(`/apikeys/${apiKey.id}`)).body.data.lastUsedAt)
      .not.toBeNull();
  });

  it('keeps keys private to their owner', async () => {
    const mine = (await user.get('/apikeys')).body.data[0];
    expect((await admin.get(`/apikeys/${mine.id}`)).status).toBe(404);
    expect((await admin.delete(`/apikeys/${mine.id}`)).status).toBe(404);
    expect((await admin.get('/apikeys')).body.data).toEqual([]);
  });

  it('stops a deleted key at once', async () => {
    const { id, key } = (await user.post('/apikeys', {})).body.data;
    const bearer = test.client();
    bearer.defaultHeaders.authorization = `Bearer ${key}`;
    expect((await bearer.get('/session')).status).toBe(200);
    expect((await user.delete(`/apikeys/${id}`)).status).toBe(204);
    const after = await bearer.get('/session');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthorized');
    expect((await user.get(`/apikeys/${id}`)).status).toBe(404);
  });

  it('reflects suspension and lost admin rights at once, although keys are cached briefly', async () => {
    const key = (await admin.post('/apikeys', {})).body.data.key as string;
    const bearer = test.client();
    bearer.defaultHeaders.authorization = `Bearer ${key}`;
    expect((await bearer.get('/session')).body.data.isAdmin).toBe(true);
    // Another administrator (through a group of its own), so that the admin group may lose its rights.
    await userClient(test, admin, 'backup');
    const backup = (await admin.get('/users')).body.data.find((u: { uid: string }) => u.uid === 'backup');
    const ops = (await admin.post('/groups', { cn: 'ops', isAdmin: true })).body.data.gidNumber;
    expect((await admin.put(`/users/${backup.uidNumber}`, { groupIds: [2000, ops] })).status).toBe(200);
    expect((await admin.put('/groups/2001', { isAdmin: false })).status).toBe(200);
    expect((await bearer.get('/session')).body.data.isAdmin).toBe(false);
    await test.manager.services.groups.update(2001, { isAdmin: true });

    const userKey = (await user.post('/apikeys', {})).body.data.key as string;
    const userBearer = test.client();
    userBearer.defaultHeaders.authorization = `Bearer ${userKey}`;
    expect((await userBearer.get('/session')).status).toBe(200);
    const erin = (await bearer.get('/users')).body.data.find((u: { uid: string }) => u.uid === 'erin');
    expect((await bearer.put(`/users/${erin.uidNumber}`, { status: 'suspended' })).status).toBe(200);
    expect((await userBearer.get('/session')).status).toBe(401);
    await bearer.put(`/users/${erin.uidNumber}`, { status: 'active' });
    await user.login('erin'); // suspension ended the session too
  });

  it('answers 401 for an unknown key and 400 for a malformed id', async () => {
    const response = await test.client().get('/session', { headers: { authorization: 'Bearer cmk_nope' } });
    expect(response.status).toBe(401);
    expect((await user.get('/apikeys/not-a-uuid')).status).toBe(400);
  });
});

describe('settings', () => {
  let test: TestManager;
  let admin: ManagerClient;

  beforeAll(async () => {
    test = await startManager();
    admin = await adminClient(test);
  });
  afterAll(() => test.close());

  it('starts with blank defaults', async () => {
    const response = await admin.get('/settings');
    expect(response.body.data).toEqual({
      smtpUrl: '',
      smtpNoreplyAddress: '',
      defaultContainerEnvVars: [],
      inventoryUrl: '',
      inventoryToken: '',
      bannerMessage: '',
      ssoAllowedDomains: [],
      ssoAllowedGroups: [],
      ssoGroupsClaim: 'groups',
      registryAllowlist: [],
      auditRetentionDays: 365,
    });
  });

  it('stores settings, masks secrets, keeps them on a masked round trip, and shows the banner in /health', async () => {
    const saved = await admin.put('/settings', {
      smtpUrl: 'smtp://mailer:s3cret-pass@mail.example.test:587',
      smtpNoreplyAddress: 'noreply@example.test',
      defaultContainerEnvVars: [{ key: 'TZ', value: 'UTC', description: 'time zone' }],
      netboxUrl: 'https://netbox.example.test',
      netboxToken: 'inventory-secret',
      bannerMessage: 'Maintenance tonight, see [status](https://status.example.test)',
    });
    expect(saved.status).toBe(200);
    expect(saved.text).not.toContain('s3cret-pass');
    expect(saved.text).not.toContain('inventory-secret');
    expect(saved.body.data).toMatchObject({
      smtpUrl: 'smtp://mailer:********@mail.example.test:587',
      inventoryUrl: 'https://netbox.example.test',
      inventoryToken: '********',
      defaultContainerEnvVars: [{ key: 'TZ', value: 'UTC', description: 'time zone' }],
    });

    const roundTrip = await admin.put('/settings', saved.body.data);
    expect(roundTrip.status).toBe(200);
    const stored = await test.manager.services.settings.get();
    expect(stored.smtpUrl).toBe('smtp://mailer:s3cret-pass@mail.example.test:587');
    expect(stored.inventoryToken).toBe('inventory-secret');
    const raw = await test.manager.database.db.selectFrom('settings').selectAll().execute();
    expect(JSON.stringify(raw)).not.toContain('s3cret-pass');

    const health = await test.client().get('/health');
    expect(health.body.data.banner).toBe('Maintenance tonight, see [status](https://status.example.test)');
    await admin.put('/settings', { bannerMessage: '' });
    expect((await test.client().get('/health')).body.data.banner).toBeNull();
  });

  it('validates values with 422 and field names', async () => {
    const response = await admin.put('/settings', {
      smtpUrl: 'http://not-smtp',
      smtpNoreplyAddress: 'nope',
      defaultContainerEnvVars: [{ key: '1BAD', value: 'x', description: '' }],
    });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.error.fields).sort()).toEqual([
      'defaultContainerEnvVars.0.key',
      'smtpNoreplyAddress',
      'smtpUrl',
    ]);
  });
});
