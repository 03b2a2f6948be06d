import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Transaction } from 'kysely';
import { envReader, isForeignKeyViolation, SecretBox, type Database } from '@app/server-kit';
import { createTestDatabase, testDialect, type TestDatabase } from '@app/server-kit/testing';
import { readManagerConfig } from '../src/config.ts';
import type { ManagerDB } from '../src/db/schema.ts';
import { openManagerDatabase } from '../src/db/store.ts';
import { ExternalDomainsRepository } from '../src/external-domains/external-domains-repository.ts';
import type { ExternalDomainsStore } from '../src/external-domains/external-domains-service.ts';
import { InMemoryExternalDomainsRepository } from '../src/testing/in-memory-external-domains-repository.ts';
import { InMemoryKeptVolumesRepository } from '../src/testing/in-memory-kept-volumes-repository.ts';
import type { KeptVolumesStore } from '../src/volumes/kept-volumes.ts';
import { siteRow } from './fleet-helpers.ts';
import { KeptVolumesRepository } from '../src/volumes/kept-volumes-repository.ts';

// The specs beside the services run on in-memory repositories: these cases hold them to what the SQL
// repositories do, on the dialect of this run.

interface Container {
  id: number;
  siteId: number;
  hostname: string;
}

/** The repositories under test, and how each side sets up the rows they read but do not write. */
interface World {
  domains: ExternalDomainsStore;
  kept: KeptVolumesStore;
  addSite(name: string): Promise<number>;
  addContainer(siteId: number, hostname: string): Promise<Container>;
  /** An HTTP service of `container` publishes on the domain. */
  publishOn(domainId: number, container: Container): Promise<void>;
  addVolume(container: Container, name: string, hostPath: string | null): Promise<void>;
  inTransaction<T>(work: (trx: Transaction<ManagerDB>) => Promise<T>): Promise<T>;
}

const NOW = '2026-01-01T00:00:00.000Z';
const stamps = { created_at: NOW, updated_at: NOW };
const secrets = new SecretBox('repositories-test');

let database: TestDatabase;
let store: Database<ManagerDB>;
beforeAll(async () => {
  database = await createTestDatabase();
  const config = readManagerConfig(
    envReader({ DATA_DIR: database.dataDir, MANAGER_DATABASE_URL: database.url, SECRET_KEY: 'repositories' }),
  );
  store = await openManagerDatabase(config, database.schema);
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

let owner: number | undefined;
/** One user owns every SQL container. */
async function ownerUid(): Promise<number> {
  if (owner !== undefined) return owner;
  const row = await store.db
    .insertInto('users')
    .values({
      uid_number: 5000,
      uid: 'repo-owner',
      given_name: 'Repo',
      sn: 'Owner',
      cn: 'Repo Owner',
      mail: 'repo-owner@example.test',
      status: 'active',
      ...stamps,
    })
    .returning('uid_number')
    .executeTakeFirstOrThrow();
  owner = row.uid_number;
  return owner;
}

function sqlWorld(): World {
  const { db } = store;
  return {
    domains: new ExternalDomainsRepository(db, secrets),
    kept: new KeptVolumesRepository(db),
    async addSite(name) {
      const site = await db
        .insertInto('sites')
        .values(siteRow(name, NOW))
        .returning('id')
        .executeTakeFirstOrThrow();
      return site.id;
    },
    async addContainer(siteId, hostname) {
      const node = await db
        .insertInto('nodes')
        .values({
          name: `${hostname}-node`,
          node_type: 'dummy',
          site_id: siteId,
          image_storage: 'local',
          volume_storage: 'local-lvm',
          network_bridge: 'vmbr0',
          nvidia_available: 0,
          ...stamps,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const container = await db
        .insertInto('containers')
        .values({
          hostname,
          owner_uid_number: await ownerUid(),
          node_id: node.id,
          status: 'running',
          template: 'debian:12',
          environment_vars: '{}',
          nvidia_requested: 0,
          ...stamps,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: container.id, siteId, hostname };
    },
    async publishOn(domainId, container) {
      const service = await db
        .insertInto('services')
        .values({ container_id: container.id, type: 'http', internal_port: 80, ...stamps })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('http_services')
        .values({
          service_id: service.id,
          external_hostname: `${container.hostname}-web`,
          external_domain_id: domainId,
          backend_protocol: 'http',
          auth_required: 0,
        })
        .execute();
    },
    async addVolume(container, name, hostPath) {
      await db
        .insertInto('volumes')
        .values({
          container_id: container.id,
          name,
          host_path: hostPath,
          mount_path: `/mnt/${name}`,
          mode: 'rw',
          scope: 'container',
          builtin: 0,
          status: hostPath ? 'ready' : 'pending',
        })
        .execute();
    },
    inTransaction: (work) => db.transaction().execute(work),
  };
}

function memoryWorld(): World {
  const domains = new InMemoryExternalDomainsRepository();
  const kept = new InMemoryKeptVolumesRepository();
  let lastId = 0;
  return {
    domains,
    kept,
    async addSite(name) {
      lastId += 1;
      domains.sites.set(lastId, name);
      return lastId;
    },
    async addContainer(siteId, hostname) {
      lastId += 1;
      return { id: lastId, siteId, hostname };
    },
    async publishOn(domainId) {
      domains.inUse.add(domainId);
    },
    async addVolume(container, name, hostPath) {
      kept.volumes.push({ containerId: container.id, name, hostPath, mountPath: `/mnt/${name}` });
    },
    inTransaction: (work) => work({} as Transaction<ManagerDB>),
  };
}

const implementations: [string, () => World][] = [
  [`SQL on ${testDialect()}`, sqlWorld],
  ['in memory', memoryWorld],
];

let names = 0;
/** Names unique in the one database both SQL runs share. */
const unique = (prefix: string) => `${prefix}${(names += 1)}`;

describe.each(implementations)('manager repositories: %s', (_name, make) => {
  let world: World;
  let siteId: number;
  let siteName: string;

  beforeEach(async () => {
    world = make();
    siteName = unique('site');
    siteId = await world.addSite(siteName);
  });

  describe('external domains', () => {
    const domain = (name: string, values: { site_id?: number; dns_provider_api_email?: string } = {}) =>
      world.domains.insert({ name, ...values, ...stamps });

    it('reads an inserted domain with its unset columns NULL and its site name', async () => {
      const name = `${unique('d')}.example.test`;
      const id = await domain(name, { site_id: siteId });
      expect(await world.domains.withSiteById(id)).toEqual({
        id,
        name,
        acme_email: null,
        acme_directory_url: null,
        dns_provider_api_email: null,
        dns_provider_api_key_sealed: null,
        site_id: siteId,
        auth_server: null,
        site_name: siteName,
        ...stamps,
      });
      expect(await world.domains.withSiteById(id + 1000)).toBeUndefined();
    });

    it('lists by name, a domain without a site with a NULL site name', async () => {
      const prefix = unique('list');
      const b = await domain(`${prefix}-b.example.test`, { site_id: siteId });
      const a = await domain(`${prefix}-a.example.test`);
      const listed = (await world.domains.listWithSites()).filter((row) => row.name.startsWith(prefix));
      expect(listed.map((row) => [row.id, row.site_name])).toEqual([
        [a, null],
        [b, siteName],
      ]);
    });

    it('answers the provider e-mail, updates, and tells a missing domain apart', async () => {
      const id = await domain(`${unique('mail')}.example.test`, {
        dns_provider_api_email: 'dns@example.test',
      });
      expect(await world.domains.providerEmail(id)).toEqual({ email: 'dns@example.test' });
      expect(
        await world.domains.update(id, { dns_provider_api_email: null, auth_server: 'http://auth' }),
      ).toBe(true);
      expect(await world.domains.providerEmail(id)).toEqual({ email: null });
      expect((await world.domains.withSiteById(id))?.auth_server).toBe('http://auth');
      expect(await world.domains.providerEmail(id + 1000)).toBeUndefined();
      expect(await world.domains.update(id + 1000, { auth_server: null })).toBe(false);
    });

    it('deletes a domain, refuses one an HTTP service publishes on, and says false for a missing one', async () => {
      const free = await domain(`${unique('free')}.example.test`);
      const used = await domain(`${unique('used')}.example.test`);
      await world.publishOn(used, await world.addContainer(siteId, unique('web')));
      expect(await world.domains.delete(free)).toBe(true);
      expect(await world.domains.delete(free)).toBe(false);
      const refused = await world.domains.delete(used).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isForeignKeyViolation(refused)).toBe(true);
      expect(await world.domains.withSiteById(used)).toMatchObject({ id: used });
    });
  });

  describe('kept volumes', () => {
    it('keeps the volumes that got a folder, listed for their site only', async () => {
      const container = await world.addContainer(siteId, unique('box'));
      await world.addVolume(container, 'data', '/srv/volumes/data');
      await world.addVolume(container, 'cache', null);
      await world.addVolume(container, 'logs', '/srv/volumes/logs');
      const kept = await world.inTransaction((trx) => world.kept.keepFrom(trx, container, NOW));
      expect(kept).toEqual([
        { name: 'data', hostPath: '/srv/volumes/data' },
        { name: 'logs', hostPath: '/srv/volumes/logs' },
      ]);
      const rows = await world.kept.listForSite(siteId);
      expect(rows.map(({ id: _id, ...row }) => row)).toEqual(
        ['data', 'logs'].map((name) => ({
          site_id: siteId,
          hostname: container.hostname,
          name,
          host_path: `/srv/volumes/${name}`,
          mount_path: `/mnt/${name}`,
          kept_at: NOW,
          status: 'kept',
          status_message: null,
        })),
      );
      expect(await world.kept.listForSite(await world.addSite(unique('other')))).toEqual([]);
    });

    it('keeps nothing of a container without folders', async () => {
      const container = await world.addContainer(siteId, unique('bare'));
      await world.addVolume(container, 'data', null);
      expect(await world.inTransaction((trx) => world.kept.keepFrom(trx, container, NOW))).toEqual([]);
      expect(await world.kept.listForSite(siteId)).toEqual([]);
    });

    it("knows a folder a container's volume has, and finds and marks kept rows within their site", async () => {
      const container = await world.addContainer(siteId, unique('mark'));
      const folder = `/srv/volumes/${unique('folder')}`;
      await world.addVolume(container, 'data', folder);
      expect(await world.kept.folderInUse(folder)).toBe(true);
      expect(await world.kept.folderInUse(`${folder}-not`)).toBe(false);
      await world.inTransaction((trx) => world.kept.keepFrom(trx, container, NOW));
      const [row] = await world.kept.listForSite(siteId);
      const otherSite = await world.addSite(unique('elsewhere'));
      expect(await world.kept.find(siteId, row!.id)).toEqual(row);
      expect(await world.kept.find(otherSite, row!.id)).toBeUndefined();
      expect(await world.kept.markRemoving(otherSite, row!.id)).toBeUndefined();
      expect(await world.kept.markRemoving(siteId, row!.id)).toEqual({ ...row, status: 'removing' });
      expect(await world.kept.find(siteId, row!.id)).toMatchObject({
        status: 'removing',
        status_message: null,
      });
    });
  });
});
