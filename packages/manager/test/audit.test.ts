import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, uidNumberOf, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';
import type { AuditEvent } from '../src/audit/audit-entry.ts';

const SECRETS = [
  's3cret-env-value',
  'hunter2-password',
  'smtp-pass-word',
  'inv-token-xyz',
  'node-secret-abc',
];

describe('audit log', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let alice: ManagerClient;
  let aliceNumber: number;
  let siteId: number;
  let containerId: number;

  /** The entries matching `query`, once the last request's entry has been written (after its answer). */
  const events = async (query = '', client = admin): Promise<AuditEvent[]> => {
    const response = await client.get(`/audit-events?limit=500${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body.data.events as AuditEvent[];
  };
  const eventually = async (query: string, predicate: (list: AuditEvent[]) => boolean) => {
    await expect.poll(async () => predicate(await events(query))).toBe(true);
    return events(query);
  };

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    alice = await userClient(test, admin, 'alice');
    aliceNumber = await uidNumberOf(test, 'alice');
    siteId = (await admin.post('/sites', siteInput({ name: '=HYPERLINK("x")' }))).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    const created = await alice.post(`/sites/${siteId}/containers`, {
      hostname: 'web1',
      template: 'custom',
      customTemplate: 'nginx:1.27',
      environmentVars: [{ key: 'API_TOKEN', value: SECRETS[0] }],
    });
    expect(created.status, created.text).toBe(201);
    containerId = created.body.data.containerId;
    expect(await jobEnds(alice, created.body.data.jobId)).toBe('success');
  });
  afterAll(() => test.close());

  it('records sign-in and failed sign-in with who, from where and how it ended', async () => {
    const client = test.client();
    expect((await client.login('alice', 'wrong password')).status).toBe(401);
    expect((await client.login('alice')).status).toBe(200);
    const list = await eventually('&action=auth.', (l) => l.some((e) => e.action === 'auth.sign_in_failed'));
    const failed = list.find((e) => e.action === 'auth.sign_in_failed')!;
    expect(failed).toMatchObject({
      actor: { uidNumber: null, kind: 'system' },
      sourceAddress: '127.0.0.1',
      outcome: 'failure',
      httpStatus: 401,
      errorCode: 'invalid_credentials',
      details: { username: 'alice', password: '[redacted]' },
    });
    const signedIn = list.filter((e) => e.action === 'auth.sign_in' && e.actor.uid === 'alice');
    expect(signedIn.length).toBeGreaterThanOrEqual(2);
    expect(signedIn[0]).toMatchObject({
      actor: { uidNumber: aliceNumber, kind: 'user' },
      target: { type: 'user', id: String(aliceNumber) },
      outcome: 'success',
      httpStatus: 200,
    });
  });

  it('records a write refused for its credential, and leaves the site agent check-in out', async () => {
    const stranger = test.client();
    stranger.defaultHeaders.authorization = 'Bearer not-a-key';
    expect((await stranger.post('/apikeys', { description: 'x' })).status).toBe(401);
    const list = await eventually('&action=apikey.create', (l) => l.some((e) => e.httpStatus === 401));
    expect(list.find((e) => e.httpStatus === 401)).toMatchObject({
      actor: { kind: 'system' },
      outcome: 'failure',
      errorCode: 'unauthorized',
    });
    expect((await test.client().post('/agents', { siteId, hostname: 'gw1' })).status).toBeLessThan(500);
    expect(await events('&action=agent.')).toEqual([]);
  });

  it('records container create, update and restart with their site and container, in their transaction', async () => {
    const url = `/sites/${siteId}/containers/${containerId}`;
    expect(
      (await alice.put(url, { environmentVars: [{ key: 'API_TOKEN', value: SECRETS[0] }], restart: false }))
        .status,
    ).toBe(200);
    expect((await alice.put(url, { restart: true })).status).toBe(200);
    const list = await eventually(`&container=${containerId}`, (l) => l.length >= 3);
    expect(list.map((e) => e.action)).toEqual(['container.restart', 'container.update', 'container.create']);
    for (const event of list) {
      expect(event).toMatchObject({
        actor: { uid: 'alice' },
        target: { type: 'container', id: String(containerId), siteId, containerId },
        outcome: 'success',
      });
    }
    expect(list[2]!.httpStatus).toBe(201);
    expect(list[2]!.details).toMatchObject({ hostname: 'web1', environmentVars: ['API_TOKEN'] });
  });

  it('writes a failure entry, and no success entry, for a change its transaction rolled back', async () => {
    const adminNumber = await uidNumberOf(test, 'admin');
    // Taking the only administrator out of the admin group is rolled back (409 last_admin).
    const refused = await admin.put(`/users/${adminNumber}`, { groupIds: [2000] });
    expect(refused.status).toBe(409);
    const list = await eventually(`&action=user.update`, (l) => l.length > 0);
    expect(list).toEqual([
      expect.objectContaining({ outcome: 'failure', httpStatus: 409, errorCode: 'last_admin' }),
    ]);
  });

  it('never stores passwords, tokens, keys or environment values', async () => {
    await admin.post('/users', {
      uid: 'bob',
      givenName: 'Bob',
      sn: 'B',
      mail: 'bob@example.test',
      userPassword: SECRETS[1],
      status: 'active',
    });
    await admin.put('/settings', {
      smtpUrl: `smtp://mailer:${SECRETS[2]}@127.0.0.1:25`,
      inventoryToken: SECRETS[3],
      defaultContainerEnvVars: [{ key: 'DEFAULT_KEY', value: SECRETS[0], description: '' }],
    });
    await admin.post(`/sites/${siteId}/nodes`, {
      name: 'pve1',
      nodeType: 'hypervisor',
      apiUrl: 'https://127.0.0.1:8006',
      tokenId: 'root@pam!ci',
      secret: SECRETS[4],
    });
    const key = (await alice.post('/apikeys', { description: 'ci' })).body.data.key as string;
    const list = await eventually('', (l) => l.some((e) => e.action === 'apikey.create'));
    expect(list.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.create', 'settings.update', 'node.create', 'apikey.create']),
    );
    const csv = (await admin.get('/audit-events.csv')).text;
    for (const text of [JSON.stringify(list), csv]) {
      for (const secret of [...SECRETS, key]) expect(text).not.toContain(secret);
    }
  });

  it('filters by user, site, container, action and time, a page at a time', async () => {
    const mine = await events(`&user=${aliceNumber}`);
    expect(mine.length).toBeGreaterThan(3);
    expect(mine.every((e) => e.actor.uidNumber === aliceNumber)).toBe(true);
    expect((await events(`&site=${siteId}`)).every((e) => e.target.siteId === siteId)).toBe(true);
    expect((await events('&action=container.update')).map((e) => e.action)).toEqual(['container.update']);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await events(`&from=${future}`)).toEqual([]);
    expect((await events(`&to=${future}`)).length).toBeGreaterThan(3);

    const all = await events();
    const pages: AuditEvent[] = [];
    let cursor: number | null = null;
    do {
      const path = `/audit-events?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page: { events: AuditEvent[]; nextCursor: number | null } = (await admin.get(path)).body.data;
      expect(page.events.length).toBeLessThanOrEqual(2);
      pages.push(...page.events);
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it('exports CSV with a header row and cells a spreadsheet does not run', async () => {
    const response = await admin.get(`/audit-events.csv?site=${siteId}&action=site.create`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...lines] = response.text.trimEnd().split('\r\n');
    expect(header).toBe(
      '"id","occurredAt","actorUid","actorUidNumber","actorApiKeyId","sourceAddress","action","targetType",' +
        '"targetId","siteId","containerId","outcome","httpStatus","errorCode","details"',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"site.create"');
    // The site's name starts with `=`: inside the details cell, which starts with `{`, and nowhere bare.
    expect(lines[0]).not.toMatch(/(^|,)"=/);
  });

  it('admits administrators only to the audit log, and every user to their own activity', async () => {
    expect((await alice.get('/audit-events')).status).toBe(403);
    expect((await alice.get('/audit-events.csv')).status).toBe(403);
    expect((await test.client().get('/audit-events')).status).toBe(401);
    const own = await alice.get('/users/me/activity?limit=500');
    expect(own.status).toBe(200);
    expect(own.body.data.events.length).toBeGreaterThan(0);
    expect(own.body.data.events.every((e: AuditEvent) => e.actor.uid === 'alice')).toBe(true);
    expect((await test.client().get('/users/me/activity')).status).toBe(401);
  });

  it('takes the client address from X-Forwarded-For only behind a trusted proxy', async () => {
    const client = test.client();
    await client.request('POST', '/auth/login', {
      body: { username: 'nobody', password: 'x' },
      headers: { 'x-forwarded-for': '198.51.100.7' },
    });
    const list = await eventually('&action=auth.sign_in_failed', (l) =>
      l.some((e) => e.details?.username === 'nobody'),
    );
    expect(list.find((e) => e.details?.username === 'nobody')!.sourceAddress).toBe('127.0.0.1');
  });

  it('records a container delete with the outcome of its job', async () => {
    const deleted = await alice.delete(`/sites/${siteId}/containers/${containerId}`);
    expect(deleted.status, deleted.text).toBe(200);
    const list = await eventually('&action=container.delete', (l) => l.length > 0);
    expect(list).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ uid: 'alice' }),
        target: { type: 'container', id: String(containerId), siteId, containerId },
        outcome: 'success',
        httpStatus: 200,
      }),
    ]);
  });

  it('stores any request body as one bounded, redacted object, and the log stays readable for everyone', async () => {
    const signIn = (body: unknown) => test.client().request('POST', '/auth/login', { body });
    const deep = JSON.parse(`${'{"a":'.repeat(60)}"bottom"${'}'.repeat(60)}`);
    const huge = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`field${i}`, 'x'.repeat(100)]));
    for (const body of [
      [{ username: 'array-caller', password: SECRETS[1] }],
      JSON.stringify('a plain string'),
      '42',
      'null',
      deep,
      huge,
    ]) {
      expect((await signIn(body)).status).toBeLessThan(500);
    }
    const list = await eventually('&action=auth.sign_in_failed', (l) => l.length >= 6);
    for (const event of list) expect(event.details === null || !Array.isArray(event.details)).toBe(true);
    const details = list.map((e) => e.details);
    expect(details).toContainEqual({ body: [{ username: 'array-caller', password: '[redacted]' }] });
    expect(details).toContainEqual({ body: 'a plain string' });
    expect(details).toContainEqual({ body: 42 });
    for (const entry of details) expect(JSON.stringify(entry).length).toBeLessThan(20_000);
    expect(JSON.stringify(list)).not.toContain(SECRETS[1]);
    expect((await alice.get('/users/me/activity')).status).toBe(200);
    expect((await admin.get('/audit-events.csv')).status).toBe(200);
  });

  it('records writes to paths whose ids are no row ids, and the log stays readable', async () => {
    expect((await alice.post('/sites/1.5/containers', {})).status).toBeLessThan(500);
    expect((await alice.put('/sites/1e999/containers/3000000000', {})).status).toBeLessThan(500);
    expect((await alice.delete('/sites/NaN/containers/-0.5')).status).toBeLessThan(500);
    const list = await eventually(`&user=${aliceNumber}&action=container.`, (l) =>
      ['1.5', '3000000000', '-0.5'].every((id) => l.some((e) => e.target.id === id)),
    );
    for (const event of list) {
      for (const id of [event.target.siteId, event.target.containerId]) {
        expect(id === null || (Number.isInteger(id) && id > 0 && id < 2 ** 31)).toBe(true);
      }
    }
    expect((await alice.get('/users/me/activity?limit=500')).status).toBe(200);
  });

  it('lists entries an older version stored with details of another shape', async () => {
    const stored = ['[{"username":"old"}]', '"text"', '7', 'null', '{"unclosed":', '{"kept":true}'];
    await test.manager.database.db
      .insertInto('audit_events')
      .values(
        stored.map((details) => ({
          occurred_at: new Date().toISOString(),
          request_id: null,
          actor_uid_number: aliceNumber,
          actor_uid: 'alice',
          actor_api_key_id: null,
          source_address: '127.0.0.1',
          action: 'test.old_shape',
          target_type: null,
          target_id: null,
          site_id: null,
          container_id: null,
          outcome: 'failure' as const,
          http_status: 400,
          error_code: 'invalid_request',
          details,
        })),
      )
      .execute();
    const list = await events('&action=test.old_shape');
    expect(list.map((e) => e.details).reverse()).toEqual([
      { body: [{ username: 'old' }] },
      { body: 'text' },
      { body: 7 },
      null,
      { body: '[unreadable]' },
      { kept: true },
    ]);
    const own = await alice.get('/users/me/activity?limit=500');
    expect(own.status, own.text).toBe(200);
    const csv = await admin.get('/audit-events.csv?action=test.old_shape');
    expect(csv.status).toBe(200);
    expect(csv.text.trimEnd().split('\r\n')).toHaveLength(stored.length + 1);
  });

  it('keeps entries for the retention setting, then prunes them', async () => {
    expect((await admin.put('/settings', { auditRetentionDays: 30 })).body.data.auditRetentionDays).toBe(30);
    expect((await admin.put('/settings', { auditRetentionDays: 0 })).status).toBe(400);
    await test.manager.services.audit.record({ action: 'test.old', outcome: 'success' });
    const in31Days = Date.now() + 31 * 86_400_000;
    expect(await test.manager.services.audit.prune(Date.now() + 29 * 86_400_000)).toBe(0);
    expect(await test.manager.services.audit.prune(in31Days)).toBeGreaterThan(0);
    expect(await events()).toEqual([]);
  });
});
