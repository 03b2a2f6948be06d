import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { addDomain, jobEnds } from './container-helpers.ts';

describe('containers: create, read, list', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let alice: ManagerClient;
  let bob: ManagerClient;
  let carol: ManagerClient;
  let siteId: number;
  let nodeId: number;
  let domainId: number;
  let base: string;
  let gpuNodeId: number;

  beforeAll(async () => {
    test = await startFleetManager({ TRANSPORT_PORT_RANGE: '30000-30099' });
    admin = await adminClient(test);
    alice = await userClient(test, admin, 'alice');
    bob = await userClient(test, admin, 'bob');
    carol = await userClient(test, admin, 'carol');
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    nodeId = (await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' })).body.data.id;
    domainId = await addDomain(test, {
      name: 'apps.example.com',
      siteId,
      authServer: 'http://127.0.0.1:4180',
    });
    await admin.put('/settings', {
      defaultContainerEnvVars: [
        { key: 'TZ', value: 'UTC', description: 'time zone' },
        { key: 'MODE', value: 'default', description: '' },
      ],
    });
    base = `/sites/${siteId}/containers`;
  });
  afterAll(() => test.close());

  it('creates a container (201), provisions it through a job, and shows every derived field', async () => {
    const created = await alice.post(base, {
      hostname: 'Web1',
      template: 'custom',
      customTemplate: 'nginx:1.27',
      entrypoint: '/docker-entrypoint.sh nginx',
      collaborators: ['bob'],
      environmentVars: [
        { key: 'MODE', value: 'mine' },
        { key: '', value: 'ignored' },
      ],
      services: {
        web: { type: 'http', internalPort: 80, externalHostname: 'web1', externalDomainId: domainId },
        ssh: { type: 'tcp', internalPort: '22' },
        dns: { type: 'srv', internalPort: 389, dnsName: '_ldap._tcp' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      containerId: expect.any(Number),
      jobId: expect.any(Number),
      hostname: 'web1',
      status: 'creating',
    });
    const { containerId, jobId } = created.body.data;
    expect(await jobEnds(alice, jobId)).toBe('success');

    const shown = await alice.get(`${base}/${containerId}`);
    expect(shown.status).toBe(200);
    const c = shown.body.data;
    expect(c).toMatchObject({
      id: containerId,
      hostname: 'web1',
      owner: 'alice',
      collaborators: ['bob'],
      containerId: expect.stringMatching(/^\d+$/),
      status: 'running',
      template: 'nginx:1.27',
      creationJobId: jobId,
      entrypoint: '/docker-entrypoint.sh nginx',
      environmentVars: { TZ: 'UTC', MODE: 'mine' },
      nvidiaRequested: false,
      sshHost: 'apps.example.com',
      httpEntries: [{ port: 80, externalUrl: 'https://web1.apps.example.com' }],
      lastAccessedAt: null,
      nodeName: 'sim1',
      nodeApiUrl: null,
    });
    expect(c.macAddress).toMatch(/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/);
    expect(parseInt(c.macAddress.slice(0, 2), 16) & 0b11).toBe(0b10); // locally administered unicast
    const last = Number(c.ipv4Address.split('.')[3]);
    expect(c.ipv4Address.startsWith('10.0.0.')).toBe(true);
    expect(last).toBeGreaterThanOrEqual(100);
    expect(last).toBeLessThanOrEqual(200);
    expect(c.sshPort).toBeGreaterThanOrEqual(30000);
    expect(c.sshPort).toBeLessThanOrEqual(30099);
    expect(c.services).toHaveLength(3);
    expect(c.services.map((s: { type: string }) => s.type).sort()).toEqual(['dns', 'http', 'transport']);
    const http = c.services.find((s: { type: string }) => s.type === 'http');
    expect(http.httpService).toMatchObject({
      externalHostname: 'web1',
      externalDomainId: domainId,
      backendProtocol: 'http',
      authRequired: false,
      domain: 'apps.example.com',
    });
    const srv = c.services.find((s: { type: string }) => s.type === 'dns');
    expect(srv.dnsService).toMatchObject({ recordType: 'SRV', dnsName: '_ldap._tcp' });

    // lastAccessedAt is the latest of the services'.
    await test.manager.database.db
      .updateTable('services')
      .set({ last_accessed_at: '2030-01-01T00:00:00.000Z' })
      .where('id', '=', http.id)
      .execute();
    expect((await alice.get(`${base}/${containerId}`)).body.data.lastAccessedAt).toBe(
      '2030-01-01T00:00:00.000Z',
    );

    // The provider got the MAC the manager allocated and the environment.
    const instance = await test.manager.database.db
      .selectFrom('dummy_instances')
      .selectAll()
      .where('vmid', '=', Number(c.containerId))
      .executeTakeFirstOrThrow();
    const config = JSON.parse(instance.config);
    expect(config.macAddress).toBe(c.macAddress);
    expect(config.environment).toEqual({ TZ: 'UTC', MODE: 'mine' });
    expect(config.resources).toEqual({ cores: 4, memoryMb: 4096, swapMb: 0, rootfsGb: 50 });
  });

  it('answers the create errors the spec lists', async () => {
    const ok = { hostname: 'x1', template: 'debian:12' };
    const hostname = await alice.post(base, { ...ok, hostname: 'not_a label' });
    expect(hostname.status).toBe(422);
    expect(hostname.body.error).toMatchObject({
      code: 'validation_failed',
      fields: { hostname: expect.any(String) },
    });

    for (const [services, text] of [
      [{ a: { type: 'ftp', internalPort: 21 } }, 'Service "a"'],
      [{ b: { type: 'http', internalPort: 80 } }, 'externalHostname'],
      [
        { c: { type: 'http', internalPort: 80, externalHostname: 'x', externalDomainId: 999 } },
        'externalDomainId',
      ],
      [{ d: { type: 'tcp', internalPort: 70000 } }, 'internalPort'],
      [{ e: { type: 'srv', internalPort: 1 } }, 'dnsName'],
      [{ f: 'nope' }, 'Service "f"'],
    ] as const) {
      const response = await alice.post(base, { ...ok, services });
      expect(response.status, JSON.stringify(services)).toBe(400);
      expect(response.body.error.code).toBe('invalid_service');
      expect(response.body.error.message).toContain(text);
    }

    const forOther = await alice.post(base, { ...ok, username: 'bob' });
    expect(forOther.status).toBe(403);
    expect(forOther.body.error.code).toBe('forbidden');
    expect((await admin.post(base, { ...ok, username: 'nobody' })).body.error.code).toBe('user_not_found');
    const collaborator = await alice.post(base, { ...ok, collaborators: ['ghost'] });
    expect(collaborator.status).toBe(404);
    expect(collaborator.body.error.code).toBe('user_not_found');
    const site = await alice.post('/sites/9999/containers', ok);
    expect(site.status).toBe(404);
    expect(site.body.error.code).toBe('site_not_found');
    const custom = await alice.post(base, { ...ok, template: 'custom' });
    expect(custom.status).toBe(400);
    expect(custom.body.error.code).toBe('invalid_request');
    const gpu = await alice.post(base, { ...ok, nvidiaRequested: true });
    expect(gpu.status).toBe(409);
    expect(gpu.body.error.code).toBe('no_nvidia_node');
    // A taken hostname is named on its field; only an administrator learns whose container has it.
    const takenBy = async (client: ManagerClient) => {
      const response = await client.post(base, { ...ok, hostname: 'WEB1' });
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('conflict');
      expect(response.body.error.fields.hostname).toBe(response.body.error.message);
      return response.body.error.message as string;
    };
    expect(await takenBy(admin)).toBe(
      'web1 is already used by a container of alice on this site; choose another hostname.',
    );
    expect(await takenBy(alice)).toBe(
      'web1 is already used by one of your containers on this site; choose another hostname.',
    );
    expect(await takenBy(bob)).toBe('web1 is already used on this site; choose another hostname.');

    const emptySite = (await admin.post('/sites', siteInput({ name: 'Empty' }))).body.data.id;
    await admin.post(`/sites/${emptySite}/nodes`, { name: 'pve-nocreds', nodeType: 'hypervisor' });
    const noNode = await alice.post(`/sites/${emptySite}/containers`, ok);
    expect(noNode.status).toBe(409);
    expect(noNode.body.error.code).toBe('no_node');
    // Nothing half-written by any refused create.
    const rows = await test.manager.database.db.selectFrom('containers').select('hostname').execute();
    expect(rows.map((row) => row.hostname)).toEqual(['web1']);
  });

  it('puts GPU requests on GPU nodes only, and others on the least-loaded node', async () => {
    const gpuNode = (
      await admin.post(`/sites/${siteId}/nodes`, {
        name: 'sim-gpu',
        nodeType: 'dummy',
        nvidiaAvailable: true,
      })
    ).body.data.id;
    const gpu = await admin.post(base, { hostname: 'gpu1', template: 'cuda:12', nvidiaRequested: true });
    expect(gpu.status).toBe(201);
    const plain = await admin.post(base, { hostname: 'plain1', template: 'debian:12' });
    await jobEnds(admin, gpu.body.data.jobId);
    await jobEnds(admin, plain.body.data.jobId);
    const list = (await admin.get(`${base}?nodeId=${gpuNode}`)).body.data;
    expect(list.map((c: { hostname: string }) => c.hostname)).toEqual(['gpu1']);
    // One container each: the tie goes to the oldest node.
    const first = (await admin.get(`${base}?nodeId=${nodeId}`)).body.data;
    expect(first.map((c: { hostname: string }) => c.hostname).sort()).toEqual(['plain1', 'web1']);
    gpuNodeId = gpuNode;
    expect(list.find((c: { hostname: string }) => c.hostname === 'gpu1').nvidiaRequested).toBe(true);
    const form = await alice.get(`${base}/new`);
    expect(form.body.data.nvidiaAvailable).toBe(true);
  });

  it('lists with visibility rules and the hostname, nodeId and user[n] filters', async () => {
    const mine = await carol.post(base, { hostname: 'carol1', template: 'debian:12' });
    await jobEnds(carol, mine.body.data.jobId);
    const names = async (client: ManagerClient, query = '') =>
      ((await client.get(`${base}${query}`)).body.data as Array<{ hostname: string }>)
        .map((c) => c.hostname)
        .sort();
    expect(await names(admin)).toEqual(['carol1', 'gpu1', 'plain1', 'web1']);
    expect(await names(alice)).toEqual(['web1']);
    expect(await names(bob)).toEqual(['web1']); // shared with bob
    expect(await names(carol)).toEqual(['carol1']);
    expect(await names(admin, '?user[0]=carol&user[1]=alice')).toEqual(['carol1', 'web1']);
    expect(await names(admin, '?user%5B0%5D=alice')).toEqual(['web1']);
    expect(await names(admin, '?user=carol')).toEqual(['carol1']);
    expect(await names(carol, '?user[0]=alice')).toEqual([]); // only narrows for non-admins
    expect(await names(bob, '?user[0]=alice')).toEqual(['web1']);
    expect(await names(admin, '?hostname=WEB1')).toEqual(['web1']);
    expect(await names(admin, `?nodeId=${nodeId}`)).toEqual(['plain1', 'web1']);
    expect(await names(admin, `?nodeId=${gpuNodeId}`)).toEqual(['carol1', 'gpu1']); // least loaded
    expect((await admin.get(`/sites/9999/containers`)).body.error.code).toBe('site_not_found');
    const listed = (await alice.get(base)).body.data[0];
    expect(listed).toEqual((await alice.get(`${base}/${listed.id}`)).body.data);
  });

  it('resolves status per the six-state table', async () => {
    const db = test.manager.database.db;
    const list = async () =>
      Object.fromEntries(
        ((await admin.get(base)).body.data as Array<{ hostname: string; status: string }>).map((c) => [
          c.hostname,
          c.status,
        ]),
      );
    const carol1 = await db
      .selectFrom('containers')
      .selectAll()
      .where('hostname', '=', 'carol1')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('dummy_instances')
      .set({ state: 'stopped' })
      .where('vmid', '=', Number(carol1.container_id))
      .execute();
    expect((await list()).carol1).toBe('offline');
    await db.deleteFrom('dummy_instances').where('vmid', '=', Number(carol1.container_id)).execute();
    expect((await list()).carol1).toBe('missing');
    await db
      .updateTable('jobs')
      .set({ status: 'failure' })
      .where('id', '=', carol1.creation_job_id!)
      .execute();
    expect((await list()).carol1).toBe('failed');
    await db
      .updateTable('jobs')
      .set({ status: 'running' })
      .where('id', '=', carol1.creation_job_id!)
      .execute();
    expect((await list()).carol1).toBe('creating');
    await db
      .updateTable('jobs')
      .set({ status: 'success' })
      .where('id', '=', carol1.creation_job_id!)
      .execute();

    // A hypervisor node without credentials: unknown.
    const pve = (await admin.post(`/sites/${siteId}/nodes`, { name: 'pve-x', nodeType: 'hypervisor' })).body
      .data.id;
    await db.updateTable('containers').set({ node_id: pve }).where('id', '=', carol1.id).execute();
    expect((await list()).carol1).toBe('unknown');
    expect((await list()).web1).toBe('running');
    await db.updateTable('containers').set({ node_id: carol1.node_id }).where('id', '=', carol1.id).execute();
  });

  it('GET …/containers/new lists external domains with the site’s own first', async () => {
    const other = (await admin.post('/sites', siteInput({ name: 'Other' }))).body.data.id;
    const foreign = await addDomain(test, { name: 'aaa.example.org', siteId: other });
    const form = await alice.get(`${base}/new`);
    expect(form.status).toBe(200);
    expect(form.body.data).toEqual({
      siteId,
      externalDomains: [
        { id: domainId, name: 'apps.example.com', siteId },
        { id: foreign, name: 'aaa.example.org', siteId: other },
      ],
      nvidiaAvailable: true,
    });
    expect((await alice.get('/sites/9999/containers/new')).body.error.code).toBe('site_not_found');
  });
});
