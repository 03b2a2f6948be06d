import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { envReader } from '@app/server-kit';
import { testDialect, upgradedFromFixture } from '@app/server-kit/testing';
import { managerMigrations } from '../migrations/index.ts';
import { readManagerConfig } from '../src/config.ts';
import { managerDbTarget } from '../src/db/store.ts';
import { CONFIG_TABLES } from '../src/db/tables.ts';
import { ManagerClient, startManager, type TestManager } from './helpers.ts';

const FIXTURE = new URL('./fixtures/upgrade-first-schema.sql', import.meta.url).pathname;
const ALICE_KEY = 'cmk_upgradeFixtureKeyForAliceOnly0123456789ab';

// A database the first releases filled (the fixture), upgraded by `manager db migrate`'s code path, then
// read through today's API: every fixture row is still there and still works.
describe(`upgrade from the first schema (${testDialect()})`, () => {
  let test: TestManager;
  let migrated: string[] = [];

  beforeAll(async () => {
    const upgraded = await upgradedFromFixture(FIXTURE, (database) =>
      managerDbTarget(
        readManagerConfig(
          envReader({
            DATA_DIR: database.dataDir,
            MANAGER_DATABASE_URL: database.url,
            SECRET_KEY: 'upgrade',
          }),
        ),
        database.schema,
      ),
    );
    migrated = upgraded.migrated;
    // Serving does not migrate again: MIGRATE_ON_START=false starts only on an up-to-date database.
    test = await startManager({ MIGRATE_ON_START: 'false' }, {}, upgraded.database);
  });
  afterAll(() => test?.close());

  it('db migrate applied every migration after the fixture', () => {
    // The fixture holds the first three migrations; every later one is applied.
    const later = Object.keys(managerMigrations('sqlite')).slice(3);
    expect(later.length).toBeGreaterThan(0);
    expect(migrated).toContain(`Applied ${later.length} migration(s): ${later.join(', ')}`);
  });

  it('users sign in with their old passwords; groups and memberships are kept', async () => {
    const root = test.client();
    expect((await root.login('root')).status).toBe(200);
    expect((await root.get('/session')).body.data).toEqual({ user: 'root', isAdmin: true });
    const users = (await root.get('/users')).body.data as {
      uid: string;
      status: string;
      groups: { cn: string }[];
    }[];
    expect(users.map((user) => [user.uid, user.status])).toEqual([
      ['root', 'active'],
      ['alice', 'active'],
      ['bob', 'pending'],
    ]);
    expect(
      users
        .find((user) => user.uid === 'alice')!
        .groups.map((group) => group.cn)
        .sort(),
    ).toEqual(['developers', 'ldapusers']);
    const groups = (await root.get('/groups')).body.data as { cn: string }[];
    expect(groups.map((group) => group.cn)).toEqual(expect.arrayContaining(['developers', 'sysadmins']));
    expect((await test.client().login('alice')).status).toBe(200);
  });

  it("alice's API key still authenticates her", async () => {
    const alice = ManagerClient.withKey(`${test.baseUrl}/api/v1`, ALICE_KEY);
    expect((await alice.get('/session')).body.data).toEqual({ user: 'alice', isAdmin: false });
    const keys = (await alice.get('/apikeys')).body.data as { keyPrefix: string; description: string }[];
    expect(keys).toEqual([
      expect.objectContaining({ keyPrefix: 'cmk_upgradeF', description: 'deploy script' }),
    ]);
  });

  it('sites, nodes and containers list with their services and collaborators', async () => {
    const root = test.client();
    await root.login('root');
    const sites = (await root.get('/sites')).body.data as { id: number; name: string }[];
    expect(sites.map((site) => site.name)).toEqual(['Legacy site']);
    const siteId = sites[0]!.id;
    const nodes = (await root.get(`/sites/${siteId}/nodes`)).body.data as { name: string }[];
    expect(nodes.map((node) => node.name)).toEqual(['legacy-node']);
    const containers = (await root.get(`/sites/${siteId}/containers`)).body.data as {
      hostname: string;
      owner: string;
      collaborators: string[];
      services: { type: string; internalPort: number }[];
    }[];
    expect(containers).toEqual([
      expect.objectContaining({ hostname: 'alice-box', owner: 'alice', collaborators: ['root'] }),
    ]);
    expect(containers[0]!.services).toEqual([expect.objectContaining({ type: 'http', internalPort: 8080 })]);
    expect(JSON.stringify(containers[0]!.services)).toContain('legacy.example.test');
  });

  it.runIf(testDialect() === 'postgres').each([
    ['config_changed', 'every configuration table the code watches', [...CONFIG_TABLES]],
    [
      'principal_changed',
      'every table a cached caller is made of (keys, tokens, users, groups)',
      ['agent_tokens', 'api_keys', 'groups', 'user_groups', 'users'],
    ],
  ])('trigger %s: %s tells every process of its changes', async (trigger, _what, tables) => {
    const { rows } = await sql<{ table: string }>`
      select c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where t.tgname = ${trigger} and c.relnamespace = ${test.schema}::regnamespace`.execute(
      test.manager.database.db,
    );
    expect(rows.map((row) => row.table).sort()).toEqual([...tables].sort());
  });
});
