import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryFake } from '@app/fakes';
import { testDialect } from '@app/server-kit/testing';
import type { ManagerApp } from '../src/app.ts';
import { adminClient, startManager, startPeer, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, FAST_JOBS, siteInput } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An API process and a worker process on one PostgreSQL database: changes travel by NOTIFY. */
describe.runIf(testDialect() === 'postgres')('site configuration shared between manager processes', () => {
  let api: TestManager;
  let worker: ManagerApp;
  let admin: ManagerClient;
  let registry: RegistryFake;
  let siteId: number;

  const checkin = (etag?: string, volumes?: unknown[]) =>
    api
      .client()
      .post(
        '/agents',
        { siteId, hostname: 'gw1', services: {}, ...(volumes ? { volumes } : {}) },
        etag ? { headers: { 'if-none-match': etag } } : {},
      );

  beforeAll(async () => {
    registry = await new RegistryFake().start();
    registry.addImage('acme/db', '1', { config: { Volumes: { '/data': {} } } });
    // A poll far longer than the test: only the change notification can wake the waiting job.
    const env = { ...FAST_JOBS, REGISTRY_MIRROR: registry.url, VOLUME_POLL_MS: '60000', VOLUME_WAIT_S: '60' };
    api = await startManager(env, { role: 'api' });
    worker = await startPeer(api, { role: 'worker' });
    admin = await adminClient(api);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await registry?.stop();
  });

  it('a write in the worker reaches the API process snapshot at once, not after the cache max age', async () => {
    await sleep(1100); // past the settle time of this process's own writes: the next build is kept
    const cached = await checkin();
    const etag = cached.headers.get('etag')!;
    expect((await checkin(etag)).status).toBe(304);

    const written = Date.now();
    await worker.services.ctx.db
      .updateTable('sites')
      .set({ dns_forwarders: '9.9.9.9' })
      .where('id', '=', siteId)
      .execute();
    const changed = await eventually(async () => {
      const response = await checkin(etag);
      return response.status === 200 && response.body.data.site.dnsForwarders === '9.9.9.9' && response;
    }, 8000);
    expect(Date.now() - written).toBeLessThan(3000); // the cache's max age is 10 s
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('a write inside a long transaction reaches the snapshot when it commits, not only after the max age', async () => {
    let etag = (await checkin()).headers.get('etag')!;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = worker.services.ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('sites').set({ dns_forwarders: '1.1.1.1' }).where('id', '=', siteId).execute();
      await held;
    });
    // While it is open (past the writer's settle time), the API process builds and keeps a snapshot
    // without the uncommitted change.
    await sleep(1500);
    const during = await checkin(etag);
    if (during.status === 200) etag = during.headers.get('etag')!;
    expect((await checkin(etag)).body?.data?.site?.dnsForwarders ?? 'unchanged').not.toBe('1.1.1.1');
    const committed = Date.now();
    release();
    await transaction;
    await eventually(async () => {
      const response = await checkin(etag);
      return response.status === 200 && response.body.data.site.dnsForwarders === '1.1.1.1';
    }, 8000);
    expect(Date.now() - committed).toBeLessThan(3000); // the cache's max age is 10 s
  });

  it('a create job in the worker goes on as soon as a check-in on the API process reports its volume ready', async () => {
    const created = await admin.post(`/sites/${siteId}/containers`, {
      hostname: 'db1',
      template: `${registry.host}/acme/db:1`,
    });
    expect(created.status, created.text).toBe(201);
    const { containerId, jobId } = created.body.data;
    const volume = await eventually(async () => {
      const row = await api.manager.database.db
        .selectFrom('volumes')
        .selectAll()
        .where('container_id', '=', containerId)
        .executeTakeFirst();
      return row?.host_path ? row : undefined;
    });
    const snapshot = await eventually(async () => {
      const body = (await checkin()).body.data;
      return body.proxy.volumes.length > 0 && body;
    }, 8000);
    expect(snapshot.proxy.volumes[0]).toMatchObject({ id: volume.id, hostPath: volume.host_path });

    // Past the wake-up the worker's own writes give (they are announced 100 ms after the write).
    await eventually(async () => {
      const rows = (await admin.get(`/jobs/${jobId}/status`)).body.data as Array<{ output: string }>;
      return rows.some((row) => row.output.startsWith('Waiting for the site agent'));
    });
    await sleep(500);
    const reported = Date.now();
    await checkin(undefined, [{ id: volume.id, status: 'ready' }]);
    expect(await jobEnds(admin, jobId)).toBe('success');
    expect(Date.now() - reported).toBeLessThan(5000);
    const instance = await worker.database.db
      .selectFrom('dummy_instances')
      .select('config')
      .where('hostname', '=', 'db1')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(instance.config).mounts).toEqual([
      { hostPath: volume.host_path, mountPath: '/data', readOnly: false },
    ]);
  });
});
