import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { migrate, openDatabase } from '@app/server-kit';
import { createTestDatabase } from '@app/server-kit/testing';
import { managerMigrations } from '../migrations/index.ts';
import { startManager, type ManagerClient, type TestManager } from './helpers.ts';
import { FAST_JOBS, siteRow } from './fleet-helpers.ts';

const BEFORE_IDENTITY = (name: string) => name < '007';
const NOW = '2025-01-01T00:00:00.000Z';

/** Rows as the manager wrote them before migration 007: references by username, `ghost` long deleted. */
async function legacyRows(db: Kysely<any>) {
  const user = (uid_number: number, uid: string, password_hash: string | null) => ({
    uid_number,
    uid,
    given_name: uid,
    sn: 'Legacy',
    cn: `${uid} Legacy`,
    mail: `${uid}@example.test`,
    password_hash,
    status: 'active',
    created_at: NOW,
    updated_at: NOW,
  });
  await db
    .insertInto('users')
    .values([user(2000, 'root', null), user(2001, 'alice', null)])
    .execute();
  await db
    .insertInto('user_groups')
    .values([
      { uid_number: 2000, gid_number: 2000 },
      { uid_number: 2000, gid_number: 2001 },
      { uid_number: 2001, gid_number: 2000 },
    ])
    .execute();
  const stamps = { created_at: NOW, updated_at: NOW };
  const { id: siteId } = await db
    .insertInto('sites')
    .values(siteRow('Old', NOW))
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: nodeId } = await db
    .insertInto('nodes')
    .values({
      name: 'sim-old',
      node_type: 'dummy',
      site_id: siteId,
      image_storage: 'local',
      volume_storage: 'local-lvm',
      network_bridge: 'vmbr0',
      ...stamps,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const job = async (created_by: string) =>
    (
      await db
        .insertInto('jobs')
        .values({ command: 'container.create', status: 'success', created_by, ...stamps })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const container = async (hostname: string, owner: string) =>
    (
      await db
        .insertInto('containers')
        .values({ hostname, owner, node_id: nodeId, template: 'debian:12', ...stamps })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const aliceBox = await container('alice-box', 'alice');
  const ghostBox = await container('ghost-box', 'ghost');
  await db
    .insertInto('container_collaborators')
    .values([
      { container_id: aliceBox, username: 'ghost', created_at: NOW },
      { container_id: ghostBox, username: 'alice', created_at: NOW },
    ])
    .execute();
  const jobs = { alice: await job('alice'), ghost: await job('ghost') };
  await db
    .insertInto('notifications')
    .values([
      {
        source: 's',
        severity: 'info',
        message: 'for alice',
        owner: 'alice',
        acknowledged_by: 'alice',
        ...stamps,
      },
      { source: 's', severity: 'info', message: 'for ghost', owner: 'ghost', ...stamps },
      { source: 's', severity: 'info', message: 'for nobody', owner: null, ...stamps },
    ])
    .execute();
  const request = (username: string, reviewed_by: string | null) => ({
    site_id: siteId,
    hostname: `${username}-box`,
    username,
    resource_type: 'memory',
    value: 8192,
    status: reviewed_by ? 'approved' : 'pending',
    reviewed_by,
    reviewed_at: reviewed_by ? NOW : null,
    ...stamps,
  });
  await db
    .insertInto('resource_requests')
    .values([request('alice', 'system'), request('ghost', 'root'), request('ghost', null)])
    .execute();
  return { siteId, aliceBox, ghostBox, jobs };
}

describe('migration 007 converts username references in place', () => {
  let test: TestManager;
  let legacy: Awaited<ReturnType<typeof legacyRows>>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const old = openDatabase<any>({
      url: database.url,
      dataDir: database.dataDir,
      fileName: 'manager.db',
      ...(database.schema ? { schema: database.schema } : {}),
    });
    const before = (dialect: Parameters<typeof managerMigrations>[0]) =>
      Object.fromEntries(
        Object.entries(managerMigrations(dialect)).filter(([name]) => BEFORE_IDENTITY(name)),
      );
    await migrate(old, before, 'manager');
    legacy = await legacyRows(old.db);
    await old.close();
    test = await startManager(FAST_JOBS, {}, database);
  });
  afterAll(() => test?.close());

  const signIn = async (uid: string): Promise<ManagerClient> => {
    await test.manager.services.users.update(
      (await test.manager.services.users.repo.findByUid(uid))!.uid_number,
      { userPassword: 'correct horse' },
    );
    const client = test.client();
    expect((await client.login(uid)).status).toBe(200);
    return client;
  };

  it('keeps owners, creators, reviewers and acknowledgers as the names they were', async () => {
    const root = await signIn('root');
    const alice = await signIn('alice');
    const containers = (await root.get(`/sites/${legacy.siteId}/containers`)).body.data;
    expect(
      containers.map((c: { hostname: string; owner: string; collaborators: string[] }) => [
        c.hostname,
        c.owner,
        c.collaborators,
      ]),
    ).toEqual([
      ['alice-box', 'alice', []],
      ['ghost-box', 'ghost', ['alice']],
    ]);
    expect((await root.get(`/jobs/${legacy.jobs.ghost}`)).body.data.createdBy).toBe('ghost');
    expect((await alice.get(`/jobs/${legacy.jobs.alice}`)).status).toBe(200);
    expect((await alice.get('/notifications')).body.data).toEqual([
      expect.objectContaining({ message: 'for alice', owner: 'alice', acknowledgedBy: 'alice' }),
    ]);
    const requests = (await root.get('/resource-requests')).body.data;
    expect(
      requests.map((r: { username: string; reviewedBy: string | null }) => [r.username, r.reviewedBy]),
    ).toEqual([
      ['ghost', null],
      ['ghost', 'root'],
      ['alice', 'system'],
    ]);
  });

  it('gives a name nobody had any more a number of its own, which a newcomer never gets', async () => {
    const root = await signIn('root');
    const created = await root.post('/users', {
      uid: 'ghost',
      givenName: 'New',
      sn: 'Ghost',
      mail: 'newghost@example.test',
      userPassword: 'correct horse',
      status: 'active',
      groupIds: [2000],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.uidNumber).toBe(2003);
    const ghost = test.client();
    await ghost.login('ghost');
    expect((await ghost.get(`/sites/${legacy.siteId}/containers`)).body.data).toEqual([]);
    expect((await ghost.get(`/sites/${legacy.siteId}/containers/${legacy.aliceBox}`)).status).toBe(404);
    expect((await ghost.get(`/jobs/${legacy.jobs.ghost}`)).status).toBe(404);
    expect((await ghost.get('/notifications')).body.data).toEqual([]);
    expect((await ghost.get('/resource-requests')).body.data).toEqual([]);
    const stored = await test.manager.database.db
      .selectFrom('deleted_users')
      .selectAll()
      .orderBy('uid_number')
      .execute();
    expect(stored.map((row) => [row.uid_number, row.uid])).toEqual([[2002, 'ghost']]);
  });
});
