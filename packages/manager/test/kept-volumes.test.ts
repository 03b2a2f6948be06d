import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerFake, RegistryFake } from '@app/fakes';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { checkin, siteInput, startFleetManager } from './fleet-helpers.ts';
import { jobEnds, jobOutputs } from './container-helpers.ts';

interface SnapshotVolume {
  id: number;
  containerHostname: string;
  name: string;
  hostPath: string;
  uid?: number;
  gid?: number;
}

describe('volume folder owners, and the folders a delete keeps until an admin has them removed', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let registry: RegistryFake;
  let docker: DockerFake;
  let siteId: number;
  let otherSite: number;
  let nodeId: number;

  beforeAll(async () => {
    registry = await new RegistryFake().start();
    docker = await new DockerFake().start();
    test = await startFleetManager({ REGISTRY_MIRROR: registry.url, VOLUME_WAIT_S: '20' });
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    otherSite = (
      await admin.post(
        '/sites',
        siteInput({ name: 'Other', dhcpRange: '10.0.1.100,10.0.1.200', gateway: '10.0.1.1' }),
      )
    ).body.data.id;
    const node = await admin.post(`/sites/${siteId}/nodes`, {
      name: 'engine1',
      nodeType: 'engine',
      apiUrl: `tcp://127.0.0.1:${docker.port}`,
    });
    expect(node.status, node.text).toBe(201);
    nodeId = node.body.data.id;
    for (const [name, user] of [
      ['numeric', '1000:1001'],
      ['named', 'postgres'],
    ]) {
      registry.addImage(`acme/${name}`, '1', { config: { User: user, Volumes: { '/data': {} } } });
      docker.addRemoteImage(`${registry.host}/acme/${name}:1`);
    }
    expect((await test.client().post('/agents', checkin(siteId))).status).toBe(200);
  });
  afterAll(async () => {
    await test?.close();
    await Promise.all([registry?.stop(), docker?.stop()]);
  });

  const snapshotVolumes = async (site = siteId) =>
    (await test.client().post('/agents', checkin(site))).body.data.proxy as {
      volumes: SnapshotVolume[];
      volumeRemovals: { id: number; hostPath: string }[];
    };
  /** Creates a container, answers its volumes ready as the site agent would, and waits for the job. */
  const createReady = async (hostname: string, image: string) => {
    const created = await admin.post(`/sites/${siteId}/containers`, {
      hostname,
      template: `${registry.host}/acme/${image}:1`,
    });
    expect(created.status, created.text).toBe(201);
    let mine: SnapshotVolume[] = [];
    for (let tries = 0; !mine.length && tries < 100; tries += 1) {
      mine = (await snapshotVolumes()).volumes.filter((volume) => volume.containerHostname === hostname);
      if (!mine.length) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await test
      .client()
      .post(
        '/agents',
        checkin(siteId, { volumes: mine.map((volume) => ({ id: volume.id, status: 'ready' })) }),
      );
    expect(await jobEnds(admin, created.body.data.jobId)).toBe('success');
    return { ...(created.body.data as { containerId: number; jobId: number }), volumes: mine };
  };
  const nodeUpdate = (fields: Record<string, unknown>) =>
    admin.put(`/sites/${siteId}/nodes/${nodeId}`, {
      name: 'engine1',
      nodeType: 'engine',
      apiUrl: `tcp://127.0.0.1:${docker.port}`,
      ...fields,
    });

  it("gives an engine container's volume folders the image's numeric User", async () => {
    const { volumes, jobId } = await createReady('num1', 'numeric');
    expect(volumes.map(({ name, uid, gid }) => ({ name, uid, gid }))).toEqual([
      { name: 'data', uid: 1000, gid: 1001 },
    ]);
    expect(await jobOutputs(admin, jobId)).toContain(
      'The volume folders will be owned by host uid 1000, gid 1001.',
    );
  });

  it('shifts the owner by the id shift an admin sets on the node; null is the default again', async () => {
    expect((await admin.get(`/sites/${siteId}/nodes/${nodeId}`)).body.data.volumeIdShift).toBeNull();
    const shifted = await nodeUpdate({ volumeIdShift: 100000 });
    expect(shifted.status, shifted.text).toBe(200);
    expect(shifted.body.data.volumeIdShift).toBe(100000);
    const { volumes } = await createReady('num2', 'numeric');
    expect(volumes.map(({ uid, gid }) => [uid, gid])).toEqual([[101000, 101001]]);
    expect((await nodeUpdate({ volumeIdShift: null })).body.data.volumeIdShift).toBeNull();
  });

  it('refuses an id shift that is not a whole number from 0', async () => {
    for (const volumeIdShift of [-1, 1_000_000_001]) {
      const response = await nodeUpdate({ volumeIdShift });
      expect(response.status, String(volumeIdShift)).toBe(422);
      expect(response.body.error.fields.volumeIdShift).toMatch(/^must be an integer from 0 to/);
    }
    expect((await nodeUpdate({ volumeIdShift: 1.5 })).status).toBe(400);
    expect((await admin.get(`/sites/${siteId}/nodes/${nodeId}`)).body.data.volumeIdShift).toBeNull();
  });

  it('keeps root for an image whose User is a name, and says so in the job log', async () => {
    const { volumes, jobId } = await createReady('named1', 'named');
    expect(volumes.map(({ uid, gid }) => [uid, gid])).toEqual([[0, 0]]);
    expect(await jobOutputs(admin, jobId)).toContain(
      'Warning: the image runs as user "postgres", which only its /etc/passwd resolves; ' +
        "the volume folders are owned by the container's root (host 0:0) instead.",
    );
  });

  it('a delete keeps the folders, says which, and lists them for admins', async () => {
    const { containerId, volumes } = await createReady('keep1', 'numeric');
    const deleted = await admin.delete(`/sites/${siteId}/containers/${containerId}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.data).toEqual({
      deleted: true,
      dnsWarnings: [],
      keptVolumes: [{ name: 'data', hostPath: volumes[0]!.hostPath }],
    });
    const listed = await admin.get(`/sites/${siteId}/kept-volumes`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      {
        id: expect.any(Number),
        siteId,
        hostname: 'keep1',
        name: 'data',
        hostPath: volumes[0]!.hostPath,
        mountPath: '/data',
        keptAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        status: 'kept',
        statusMessage: null,
      },
    ]);
    expect((await snapshotVolumes()).volumes.map((volume) => volume.containerHostname)).not.toContain(
      'keep1',
    );
    expect((await admin.get(`/sites/${otherSite}/kept-volumes`)).body.data).toEqual([]);
  });

  it('only admins see or remove kept folders; unknown ones are 404', async () => {
    const user = await userClient(test, admin, 'nora');
    const [kept] = (await admin.get(`/sites/${siteId}/kept-volumes`)).body.data;
    expect((await user.get(`/sites/${siteId}/kept-volumes`)).status).toBe(403);
    const refused = await user.delete(`/sites/${siteId}/kept-volumes/${kept.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await admin.get('/sites/9999/kept-volumes')).body.error.code).toBe('site_not_found');
    for (const response of [
      await admin.delete(`/sites/${siteId}/kept-volumes/99999`),
      await admin.delete(`/sites/${otherSite}/kept-volumes/${kept.id}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error).toEqual({ code: 'not_found', message: 'Kept volume not found.' });
    }
    expect((await admin.get(`/sites/${siteId}/kept-volumes`)).body.data[0].status).toBe('kept');
  });

  it("a removal goes to the site's agent, whose report removes the row (or records why not)", async () => {
    const [kept] = (await admin.get(`/sites/${siteId}/kept-volumes`)).body.data;
    const removing = await admin.delete(`/sites/${siteId}/kept-volumes/${kept.id}`);
    expect(removing.status, removing.text).toBe(202);
    expect(removing.body.data).toEqual({ ...kept, status: 'removing' });
    expect((await snapshotVolumes()).volumeRemovals).toEqual([{ id: kept.id, hostPath: kept.hostPath }]);
    expect((await snapshotVolumes(otherSite)).volumeRemovals).toEqual([]);

    // Another site's agent cannot answer for it.
    await test
      .client()
      .post('/agents', checkin(otherSite, { volumeRemovals: [{ id: kept.id, status: 'removed' }] }));
    await test
      .client()
      .post(
        '/agents',
        checkin(siteId, { volumeRemovals: [{ id: kept.id, status: 'failed', message: 'EBUSY: in use' }] }),
      );
    const failed = (await admin.get(`/sites/${siteId}/kept-volumes`)).body.data[0];
    expect([failed.status, failed.statusMessage]).toEqual(['remove_failed', 'EBUSY: in use']);
    expect((await snapshotVolumes()).volumeRemovals).toEqual([]);

    expect((await admin.delete(`/sites/${siteId}/kept-volumes/${kept.id}`)).status).toBe(202);
    await test
      .client()
      .post('/agents', checkin(siteId, { volumeRemovals: [{ id: kept.id, status: 'removed' }] }));
    expect((await admin.get(`/sites/${siteId}/kept-volumes`)).body.data).toEqual([]);
  });

  it('never removes a kept folder a new container of the same hostname and owner has again', async () => {
    const first = await createReady('again1', 'numeric');
    await admin.delete(`/sites/${siteId}/containers/${first.containerId}`);
    const [kept] = (await admin.get(`/sites/${siteId}/kept-volumes`)).body.data;
    expect((await admin.delete(`/sites/${siteId}/kept-volumes/${kept.id}`)).status).toBe(202);

    const second = await createReady('again1', 'numeric');
    expect(second.volumes.map((volume) => volume.hostPath)).toEqual([kept.hostPath]);
    expect((await snapshotVolumes()).volumeRemovals).toEqual([]);
    const refused = await admin.delete(`/sites/${siteId}/kept-volumes/${kept.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('volume_in_use');
    await admin.delete(`/sites/${siteId}/containers/${second.containerId}`);
    await test.manager.database.db.deleteFrom('kept_volumes').execute();
  });

  it('never hands the agent a path of another shape than the volume folders it makes', async () => {
    const [row] = await test.manager.database.db
      .insertInto('kept_volumes')
      .values({
        site_id: siteId,
        hostname: 'legacy',
        name: 'data',
        host_path: '/mnt/pve/local-lvm',
        mount_path: '/data',
        kept_at: new Date().toISOString(),
        status: 'kept',
        status_message: null,
      })
      .returning('id')
      .execute();
    const refused = await admin.delete(`/sites/${siteId}/kept-volumes/${row!.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('path_not_removable');
    expect((await snapshotVolumes()).volumeRemovals).toEqual([]);
  });
});
