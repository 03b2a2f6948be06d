import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerFake, RegistryFake } from '@app/fakes';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, siteInput, startFleetManager } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';

const WAIT_S = 4;

describe('container volumes: from the image, prepared by the site agent, awaited by jobs', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let registry: RegistryFake;
  let docker: DockerFake;
  let siteId: number;
  let image: string;

  beforeAll(async () => {
    registry = await new RegistryFake().start();
    docker = await new DockerFake().start();
    test = await startFleetManager({ REGISTRY_MIRROR: registry.url, VOLUME_WAIT_S: String(WAIT_S) });
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    const node = await admin.post(`/sites/${siteId}/nodes`, {
      name: 'engine1',
      nodeType: 'engine',
      apiUrl: `tcp://127.0.0.1:${docker.port}`,
    });
    expect(node.status, node.text).toBe(201);
    registry.addImage('acme/db', '1', {
      config: {
        Volumes: { '/var/lib/db': {}, '/etc/db/': {}, '/srv/../etc': {}, '/bad,path': {}, relative: {} },
      },
    });
    registry.addImage('acme/plain', '1', { config: { ExposedPorts: { '80/tcp': {} } } });
    image = `${registry.host}/acme/db:1`;
    docker.addRemoteImage(image);
    docker.addRemoteImage(`${registry.host}/acme/plain:1`);
  });
  afterAll(async () => {
    await test?.close();
    await Promise.all([registry?.stop(), docker?.stop()]);
  });

  const volumeRows = (containerId: number) =>
    test.manager.database.db
      .selectFrom('volumes')
      .selectAll()
      .where('container_id', '=', containerId)
      .orderBy('id')
      .execute();
  const outputOf = async (jobId: number) =>
    ((await admin.get(`/jobs/${jobId}/status`)).body.data as Array<{ output: string }>).map((r) => r.output);
  const waitingFor = (jobId: number) =>
    eventually(async () =>
      (await outputOf(jobId)).some((line) => line.startsWith('Waiting for the site agent')),
    );
  const checkin = (volumes?: unknown[]) =>
    test.client().post('/agents', {
      siteId,
      hostname: 'gw1',
      services: {},
      ...(volumes ? { volumes } : {}),
    });
  const create = async (hostname: string, template = image) => {
    const response = await admin.post(`/sites/${siteId}/containers`, { hostname, template });
    expect(response.status, response.text).toBe(201);
    return response.body.data as { containerId: number; jobId: number };
  };
  const hostPathOf = (hostname: string, name: string) =>
    `/mnt/pve/local-lvm/${siteId}/2000/${hostname}/${name}`;

  it('fails the create job at once, saying what to do, while no site agent has ever checked in', async () => {
    const started = Date.now();
    const { containerId, jobId } = await create('early1');
    expect(await jobEnds(admin, jobId)).toBe('failure');
    expect(Date.now() - started).toBeLessThan(WAIT_S * 1000);
    expect((await outputOf(jobId)).at(-1)).toBe(
      `Error: No site agent has checked in for site ${siteId}, so nothing can prepare the 2 volumes of early1. ` +
        `Install the site agent on the site's gateway (README, "The site agent") and try again.`,
    );
    expect((await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data.status).toBe('failed');
    expect(docker.store.containers.size).toBe(0);
    expect((await admin.delete(`/sites/${siteId}/containers/${containerId}`)).status).toBe(200);
  });

  it('creates the image volumes pending in the job; it waits for the agent, then mounts them', async () => {
    await checkin();
    const { containerId, jobId } = await create('db1');
    await waitingFor(jobId);
    const rows = await volumeRows(containerId);
    expect(
      rows.map(({ name, mount_path, mode, scope, builtin, status }) => ({
        name,
        mount_path,
        mode,
        scope,
        builtin,
        status,
      })),
    ).toEqual([
      {
        name: 'var-lib-db',
        mount_path: '/var/lib/db',
        mode: 'rw',
        scope: 'container',
        builtin: 1,
        status: 'pending',
      },
      {
        name: 'etc-db',
        mount_path: '/etc/db',
        mode: 'rw',
        scope: 'container',
        builtin: 1,
        status: 'pending',
      },
    ]);

    const snapshot = (await checkin()).body.data;
    const volumes = snapshot.proxy.volumes.filter(
      (v: { containerHostname: string }) => v.containerHostname === 'db1',
    );
    expect(volumes).toEqual([
      {
        id: rows[0]!.id,
        containerHostname: 'db1',
        name: 'var-lib-db',
        hostPath: hostPathOf('db1', 'var-lib-db'),
        mode: 'rw',
        status: 'pending',
        uid: 0,
        gid: 0,
      },
      {
        id: rows[1]!.id,
        containerHostname: 'db1',
        name: 'etc-db',
        hostPath: hostPathOf('db1', 'etc-db'),
        mode: 'rw',
        status: 'pending',
        uid: 0,
        gid: 0,
      },
    ]);
    expect((await admin.get(`/jobs/${jobId}`)).body.data.status).toBe('running');
    expect(docker.store.containers.size).toBe(0);

    await checkin(rows.map((row) => ({ id: row.id, status: 'ready', message: null })));
    expect(await jobEnds(admin, jobId)).toBe('success');
    const output = await outputOf(jobId);
    expect(output.filter((line) => line.startsWith('Warning:'))).toEqual([
      expect.stringContaining('"/srv/../etc" was left out'),
      expect.stringContaining('"/bad,path" was left out'),
      expect.stringContaining('"relative" was left out'),
    ]);
    const container = (await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data;
    expect(container).not.toHaveProperty('volumes');
    expect(docker.container(container.containerId).hostConfig.Binds).toEqual([
      `${hostPathOf('db1', 'var-lib-db')}:/var/lib/db:rw`,
      `${hostPathOf('db1', 'etc-db')}:/etc/db:rw`,
    ]);
    const after = await volumeRows(containerId);
    expect(after.map((row) => [row.status, row.status_message])).toEqual([
      ['ready', null],
      ['ready', null],
    ]);
    expect(after.every((row) => row.applied_at)).toBe(true);
  });

  it('fails the create job with the message of a volume the agent reports failed', async () => {
    const { containerId, jobId } = await create('db2');
    await waitingFor(jobId);
    const [first, second] = await volumeRows(containerId);
    const before = docker.store.containers.size;
    await checkin([
      { id: first!.id, status: 'ready' },
      { id: second!.id, status: 'failed', message: 'mkdir /mnt/pve/local-lvm: permission denied' },
    ]);
    expect(await jobEnds(admin, jobId)).toBe('failure');
    expect((await outputOf(jobId)).at(-1)).toBe(
      `Error: The site agent could not prepare volume etc-db (${hostPathOf('db2', 'etc-db')}): mkdir /mnt/pve/local-lvm: permission denied`,
    );
    expect((await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data.status).toBe('failed');
    expect(docker.store.containers.size).toBe(before);
  });

  it('fails the create job cleanly when no agent prepares the volumes in time', async () => {
    const started = Date.now();
    const { containerId, jobId } = await create('db3');
    expect(await jobEnds(admin, jobId)).toBe('failure');
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_S * 1000);
    expect((await outputOf(jobId)).at(-1)).toMatch(
      new RegExp(
        `^Error: The site agent did not prepare 2 volumes \\(var-lib-db, etc-db\\) within ${WAIT_S} s; a site agent of site ${siteId} last checked in at \\S+\\.$`,
      ),
    );
    expect((await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data.status).toBe('failed');
    expect((await volumeRows(containerId)).map((row) => row.status)).toEqual(['pending', 'pending']);
  });

  it('reconfigure jobs wait too: a failed volume is tried again before the change is applied', async () => {
    const db1 = (await admin.get(`/sites/${siteId}/containers?hostname=db1`)).body.data[0];
    const [volume] = await volumeRows(db1.id);
    await test.manager.database.db
      .updateTable('volumes')
      .set({ status: 'failed', status_message: 'disk gone' })
      .where('id', '=', volume!.id)
      .execute();
    const changed = await admin.put(`/sites/${siteId}/containers/${db1.id}`, {
      environmentVars: [{ key: 'MODE', value: 'x' }],
    });
    expect(changed.body.data.jobId).toEqual(expect.any(Number));
    const jobId = changed.body.data.jobId as number;
    await waitingFor(jobId);
    expect((await volumeRows(db1.id))[0]!.status).toBe('pending');
    await checkin([{ id: volume!.id, status: 'ready' }]);
    expect(await jobEnds(admin, jobId)).toBe('success');
    // The engine recreates the container for a new environment: the binds go along.
    const recreated = (await admin.get(`/sites/${siteId}/containers/${db1.id}`)).body.data.containerId;
    expect(recreated).not.toBe(db1.containerId);
    expect(docker.container(recreated).hostConfig.Binds).toHaveLength(2);
    const output = await outputOf(jobId);
    expect(output.findIndex((line) => line.startsWith('Waiting'))).toBeLessThan(
      output.findIndex((line) => line.startsWith('Applying the new configuration')),
    );
  });

  it('an image without volumes, or whose registry cannot answer, gives none and does not wait', async () => {
    const plain = await create('plain1', `${registry.host}/acme/plain:1`);
    expect(await jobEnds(admin, plain.jobId)).toBe('success');
    expect(await volumeRows(plain.containerId)).toEqual([]);
    expect((await outputOf(plain.jobId)).some((line) => line.startsWith('Waiting'))).toBe(false);

    const sim = await admin.post(
      '/sites',
      siteInput({ name: 'Sim', dhcpRange: '10.0.1.100,10.0.1.200', gateway: '10.0.1.1' }),
    );
    const simSite = sim.body.data.id as number;
    await admin.post(`/sites/${simSite}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    const unreachable = await admin.post(`/sites/${simSite}/containers`, {
      hostname: 'far1',
      template: '127.0.0.1:9/acme/db:1',
    });
    expect(unreachable.status).toBe(201);
    expect(await jobEnds(admin, unreachable.body.data.jobId)).toBe('success');
    expect(await volumeRows(unreachable.body.data.containerId)).toEqual([]);
    expect((await outputOf(unreachable.body.data.jobId))[0]).toMatch(
      /^Warning: the volumes image 127\.0\.0\.1:9\/acme\/db:1 declares could not be read \(.+\); the container has none\.$/,
    );
  });

  it('on a dummy node of a site without an agent (the demo), simulates the folders instead of waiting', async () => {
    const simSite = (await admin.get('/sites')).body.data.find((s: { name: string }) => s.name === 'Sim').id;
    const { body } = await admin.post(`/sites/${simSite}/containers`, {
      hostname: 'simdb1',
      template: image,
    });
    expect(await jobEnds(admin, body.data.jobId)).toBe('success');
    expect(await outputOf(body.data.jobId)).toContain(
      `No site agent serves site ${simSite}; the dummy node simulates the volumes' folders.`,
    );
    expect((await volumeRows(body.data.containerId)).map((row) => row.status)).toEqual([
      'pending',
      'pending',
    ]);
    const instance = await test.manager.database.db
      .selectFrom('dummy_instances')
      .select('config')
      .where('hostname', '=', 'simdb1')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(instance.config).mounts).toHaveLength(2);
  });

  it("reads the VOLUMEs of the image of the container's node's architecture", async () => {
    const arm = await new DockerFake({ architecture: 'aarch64' }).start();
    try {
      registry.addImage('acme/split', '1', {
        format: 'oci',
        platforms: [
          { architecture: 'amd64', os: 'linux', config: { Volumes: { '/data/amd64': {} } } },
          { architecture: 'arm64', os: 'linux', config: { Volumes: { '/data/arm64': {} } } },
        ],
      });
      const template = `${registry.host}/acme/split:1`;
      arm.addRemoteImage(template);
      const newSite = async (name: string, subnet: number, apiUrl: string) => {
        const site = (
          await admin.post(
            '/sites',
            siteInput({
              name,
              dhcpRange: `10.0.${subnet}.100,10.0.${subnet}.200`,
              gateway: `10.0.${subnet}.1`,
            }),
          )
        ).body.data.id as number;
        const node = await admin.post(`/sites/${site}/nodes`, {
          name: `${name}-1`,
          nodeType: 'engine',
          apiUrl,
        });
        expect(node.status, node.text).toBe(201);
        return site;
      };

      const armSite = await newSite('arm', 2, `tcp://127.0.0.1:${arm.port}`);
      await test.client().post('/agents', { siteId: armSite, hostname: 'gw-arm', services: {} });
      const created = await admin.post(`/sites/${armSite}/containers`, { hostname: 'armdb1', template });
      expect(created.status, created.text).toBe(201);
      const { containerId, jobId } = created.body.data as { containerId: number; jobId: number };
      await waitingFor(jobId);
      const rows = await volumeRows(containerId);
      expect(rows.map((row) => row.mount_path)).toEqual(['/data/arm64']);
      await test.client().post('/agents', {
        siteId: armSite,
        hostname: 'gw-arm',
        services: {},
        volumes: [{ id: rows[0]!.id, status: 'ready' }],
      });
      expect(await jobEnds(admin, jobId)).toBe('success');
      const instance = (await admin.get(`/sites/${armSite}/containers/${containerId}`)).body.data.containerId;
      expect(arm.container(instance).hostConfig.Binds).toEqual([
        `/mnt/pve/local-lvm/${armSite}/2000/armdb1/data-arm64:/data/arm64:rw`,
      ]);

      // A node that cannot say gives amd64's, with a warning (this job then fails: no agent, no node).
      const farSite = await newSite('far', 3, 'tcp://127.0.0.1:1');
      const far = (await admin.post(`/sites/${farSite}/containers`, { hostname: 'fardb1', template })).body
        .data as { containerId: number; jobId: number };
      expect(await jobEnds(admin, far.jobId)).toBe('failure');
      expect((await volumeRows(far.containerId)).map((row) => row.mount_path)).toEqual(['/data/amd64']);
      expect((await outputOf(far.jobId))[0]).toMatch(
        /^Warning: node far-1 did not tell its architecture \(.+\); reading the image for linux\/amd64\.$/,
      );
    } finally {
      await arm.stop();
    }
  });

  it('ignores check-in results for volumes of another site', async () => {
    const db3 = (await admin.get(`/sites/${siteId}/containers?hostname=db3`)).body.data[0];
    const [volume] = await volumeRows(db3.id);
    const other = (await admin.get('/sites')).body.data.find((s: { id: number }) => s.id !== siteId);
    await test.client().post('/agents', {
      siteId: other.id,
      hostname: 'gw2',
      services: {},
      volumes: [{ id: volume!.id, status: 'ready' }],
    });
    expect((await volumeRows(db3.id))[0]!.status).toBe('pending');
  });
});
