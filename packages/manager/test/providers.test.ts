import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerFake, ProxmoxFake } from '@app/fakes';
import { adminClient, uidNumberOf, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, siteInput, startFleetManager, startImportCluster } from './fleet-helpers.ts';
import { INSTANCE_COMMANDS } from '../src/providers/provider-jobs.ts';

const TOKEN = 'root@pam!manager';
const SECRET = '0b1d7c5e-3f0a-4d7e-9b64-2d6f0e9a1c11';
const MAC = 'BC:24:11:AA:BB:01';

interface Inspected {
  Config: { MacAddress?: string; Env: string[] };
  NetworkSettings?: { Networks?: Record<string, { MacAddress?: string }> };
}

const spec = (hostname: string, image: string, extra: Record<string, unknown> = {}) => ({
  hostname,
  image,
  macAddress: MAC,
  entrypoint: null,
  environment: { GREETING: 'hello' },
  nvidia: false,
  resources: { cores: 1, memoryMb: 512, swapMb: 256, rootfsGb: 4 },
  ...extra,
});

describe('providers against the fakes', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let siteId: number;
  let pve: ProxmoxFake;
  let docker: DockerFake;
  let podman: DockerFake;

  beforeAll(async () => {
    const sockets = mkdtempSync(join(tmpdir(), 'engine-'));
    pve = await new ProxmoxFake({
      tls: true,
      tokens: { [TOKEN]: SECRET },
      users: { 'root@pam': 'hunter22' },
      taskDurationMs: 20,
    }).start();
    docker = await new DockerFake({ socketPath: join(sockets, 'docker.sock') }).start();
    podman = await new DockerFake({ flavor: 'podman', socketPath: join(sockets, 'podman.sock') }).start();
    docker.addRemoteImage('nginx:1.27');
    podman.addRemoteImage('nginx:1.27');
    test = await startFleetManager();
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
  });
  afterAll(async () => {
    await test.close();
    await Promise.all([pve.stop(), docker.stop(), podman.stop()]);
  });

  const addNode = async (body: Record<string, unknown>) => {
    const response = await admin.post(`/sites/${siteId}/nodes`, body);
    expect(response.status, response.text).toBe(201);
    return response.body.data as { id: number; name: string };
  };
  const runJob = async (command: string, payload: unknown) => {
    const job = await test.manager.services.jobs.enqueue(command, payload, await uidNumberOf(test, 'admin'));
    const status = await eventually(async () => {
      const current = await test.manager.services.jobs.repo.statusOf(job.id);
      return current === 'success' || current === 'failure' ? current : undefined;
    }, 20_000);
    const rows = (await admin.get(`/jobs/${job.id}/status`)).body.data as Array<{ output: string }>;
    return { status, outputs: rows.map((row) => row.output) };
  };
  const instances = async (nodeId: number) => {
    const node = await test.manager.services.nodes.connectionById(nodeId);
    return test.manager.services.providers.instances(node);
  };

  describe('hypervisor (Proxmox VE)', () => {
    let nodeId: number;

    beforeAll(async () => {
      nodeId = (
        await addNode({
          name: 'pve',
          nodeType: 'proxmox',
          apiUrl: pve.url,
          tokenId: TOKEN,
          secret: SECRET,
          tlsVerify: false,
        })
      ).id;
    });

    it('creates an LXC container from a template: task log streamed into the job, running, with our MAC', async () => {
      const { status, outputs } = await runJob(INSTANCE_COMMANDS.create, {
        nodeId,
        spec: spec('ct-web', 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst'),
      });
      expect(status, outputs.join('\n')).toBe('success');
      expect(outputs[0]).toBe('Creating CT 100 (ct-web) on pve');
      expect(outputs).toContain('TASK OK');
      expect(outputs.indexOf('Starting CT 100')).toBeGreaterThan(outputs.indexOf('TASK OK'));
      const state = await instances(nodeId);
      expect(state.reachable).toBe(true);
      const ct = state.reachable
        ? [...state.instances.values()].find((i) => i.hostname === 'ct-web')
        : undefined;
      expect(ct).toMatchObject({ state: 'running' });
      const config = pve.state.containers.get(Number(ct!.containerId))!.config;
      expect(String(config.net0)).toContain(`hwaddr=${MAC}`);
      expect(String(config.net0)).toContain('bridge=vmbr0');
    });

    it('allocates distinct VMIDs for concurrent creates', async () => {
      const results = await Promise.all(
        ['ct-a', 'ct-b', 'ct-c'].map((hostname) =>
          runJob(INSTANCE_COMMANDS.create, {
            nodeId,
            spec: spec(hostname, 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst', {
              macAddress: null,
            }),
          }),
        ),
      );
      expect(results.map((result) => result.status)).toEqual(['success', 'success', 'success']);
      const state = await instances(nodeId);
      const hostnames = state.reachable ? [...state.instances.values()].map((i) => i.hostname).sort() : [];
      expect(hostnames).toEqual(['ct-a', 'ct-b', 'ct-c', 'ct-web']);
    });

    it('fails a create whose task fails, with the task error in the output, and cleans up', async () => {
      pve.failNextTask({ type: 'vzcreate', message: 'unable to create CT - no space left on device' });
      const before = pve.state.containers.size;
      const { status, outputs } = await runJob(INSTANCE_COMMANDS.create, {
        nodeId,
        spec: spec('ct-fail', 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst', { macAddress: null }),
      });
      expect(status).toBe('failure');
      expect(outputs.join('\n')).toMatch(/no space left on device/);
      expect(pve.state.containers.size).toBe(before);
    });

    it('stops, starts, restarts and deletes through jobs', async () => {
      const state = await instances(nodeId);
      const ct = state.reachable
        ? [...state.instances.values()].find((i) => i.hostname === 'ct-a')!
        : undefined;
      const payload = { nodeId, containerId: ct!.containerId };
      expect((await runJob(INSTANCE_COMMANDS.stop, payload)).status).toBe('success');
      expect(pve.state.containers.get(Number(ct!.containerId))!.status).toBe('stopped');
      expect((await runJob(INSTANCE_COMMANDS.restart, payload)).status).toBe('success');
      expect(pve.state.containers.get(Number(ct!.containerId))!.status).toBe('running');
      expect((await runJob(INSTANCE_COMMANDS.delete, payload)).status).toBe('success');
      expect(pve.state.containers.has(Number(ct!.containerId))).toBe(false);
    });

    it('reports storages and stats', async () => {
      const storages = await admin.get(`/sites/${siteId}/nodes/${nodeId}/storages`);
      expect(storages.body.data).toEqual([
        { name: 'local', total: expect.any(Number), available: expect.any(Number) },
      ]);
      const stats = (await admin.get(`/sites/${siteId}/nodes/${nodeId}/stats`)).body.data;
      expect(stats).toMatchObject({
        available: true,
        cpu: { usage: expect.any(Number) },
        memory: { total: expect.any(Number) },
        uptime: expect.any(Number),
      });
      expect(stats.datastores.map((d: { name: string }) => d.name).sort()).toEqual(['local', 'local-lvm']);
    });

    /** A node that logs in as root@pam with a password (a ticket), as the fake's cluster member. */
    const rootTicketNode = async (name: string) => {
      const node = await addNode({
        name,
        apiUrl: pve.url,
        tokenId: 'root@pam',
        secret: 'hunter22',
        tlsVerify: false,
      });
      // The node name must be a cluster member for /nodes/{node}/…: point it at the fake's member.
      return { ...(await test.manager.services.nodes.connectionById(node.id)), name: 'pve' };
    };

    it('logs in with a ticket when tokenId is a user, and refuses an unverifiable certificate when tlsVerify is on', async () => {
      const connection = await rootTicketNode('pve-ticket');
      const state = await test.manager.services.providers
        .for(connection)
        .instances(connection, AbortSignal.timeout(3000));
      expect(state.reachable).toBe(true);
      const strict = { ...connection, id: -1, tokenId: TOKEN, secret: SECRET, tlsVerify: true };
      const refused = await test.manager.services.providers.instances(strict);
      expect(refused.reachable).toBe(false);
    });

    it('bind-mounts volumes as mpN (ro=1 when read-only) with a root@pam ticket; an API token gets 403', async () => {
      const connection = await rootTicketNode('pve-root');
      const provider = test.manager.services.providers.for(connection);
      const ctx = { signal: AbortSignal.timeout(10_000), log: async () => undefined };
      const mounts = [
        { hostPath: '/mnt/pve/local-lvm/1/alice/db1/var-lib-db', mountPath: '/var/lib/db', readOnly: false },
        { hostPath: '/srv/shared/config', mountPath: '/etc/app', readOnly: true },
      ];
      const template = 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst';
      const { containerId } = await provider.create(connection, spec('ct-mounts', template, { mounts }), ctx);
      const config = pve.state.containers.get(Number(containerId))!.config;
      expect(config.mp0).toBe('/mnt/pve/local-lvm/1/alice/db1/var-lib-db,mp=/var/lib/db');
      expect(config.mp1).toBe('/srv/shared/config,mp=/etc/app,ro=1');

      const token = await test.manager.services.nodes.connectionById(nodeId);
      await expect(provider.create(token, spec('ct-token', template, { mounts }), ctx)).rejects.toThrow(
        /mount point type bind is only allowed for root@pam/,
      );
    });

    it('gives unknown (unreachable) within the timeout for a slow node and for a down node', async () => {
      pve.setLatency(10_000);
      let started = Date.now();
      const slow = await instances(nodeId);
      expect(slow.reachable).toBe(false);
      expect(Date.now() - started).toBeLessThan(3000);
      const stats = await admin.get(`/sites/${siteId}/nodes/${nodeId}/stats`);
      expect(stats.body.data.available).toBe(false);
      pve.setLatency(0);

      await pve.setUnreachable(true);
      started = Date.now();
      expect((await instances(nodeId)).reachable).toBe(false);
      expect((await admin.get(`/sites/${siteId}/nodes/${nodeId}/storages`)).body.data).toEqual([]);
      expect(Date.now() - started).toBeLessThan(4000);
      await pve.setUnreachable(false);
      expect((await instances(nodeId)).reachable).toBe(true);
    });
  });

  describe('engine (Docker Engine API, Podman compatible)', () => {
    for (const flavor of ['docker', 'podman'] as const) {
      it(`${flavor}: pulls with progress, creates and starts over a unix socket with our MAC`, async () => {
        const fake = flavor === 'docker' ? docker : podman;
        const node = await addNode({
          name: `${flavor}1`,
          nodeType: flavor === 'docker' ? 'docker' : 'engine',
          apiUrl: `unix://${fake.socketPath}`,
        });
        const { status, outputs } = await runJob(INSTANCE_COMMANDS.create, {
          nodeId: node.id,
          spec: spec(`${flavor}-web`, 'nginx:1.27'),
        });
        expect(status, outputs.join('\n')).toBe('success');
        expect(outputs[0]).toBe('Pulling nginx:1.27');
        expect(outputs.some((line) => /Pull complete|Download complete/.test(line))).toBe(true);
        const state = await instances(node.id);
        const created = state.reachable
          ? [...state.instances.values()].find((i) => i.hostname === `${flavor}-web`)
          : undefined;
        expect(created).toMatchObject({ state: 'running' });
        const inspected = (await fetch(`${fake.url}/v1.41/containers/${created!.containerId}/json`).then(
          (r) => r.json(),
        )) as Inspected;
        const macs = [
          inspected.Config?.MacAddress,
          ...Object.values(inspected.NetworkSettings?.Networks ?? {}).map(
            (n) => (n as { MacAddress?: string }).MacAddress,
          ),
        ];
        expect(macs.map((mac) => mac?.toUpperCase())).toContain(MAC);
        expect(inspected.Config.Env).toContain('GREETING=hello');

        const payload = { nodeId: node.id, containerId: created!.containerId };
        expect((await runJob(INSTANCE_COMMANDS.stop, payload)).status).toBe('success');
        expect((await runJob(INSTANCE_COMMANDS.start, payload)).status).toBe('success');
        expect((await runJob(INSTANCE_COMMANDS.restart, payload)).status).toBe('success');
        expect((await runJob(INSTANCE_COMMANDS.delete, payload)).status).toBe('success');
        const after = await instances(node.id);
        expect(after.reachable && after.instances.has(created!.containerId)).toBe(false);
      });
    }

    it('fails a create whose pull fails mid-stream and reports the error', async () => {
      const node = await addNode({
        name: 'docker-tcp',
        nodeType: 'engine',
        apiUrl: `tcp://127.0.0.1:${docker.port}`,
      });
      docker.addRemoteImage('redis:7');
      docker.failNextPull('unexpected EOF while downloading layer');
      const { status, outputs } = await runJob(INSTANCE_COMMANDS.create, {
        nodeId: node.id,
        spec: spec('broken', 'redis:7'),
      });
      expect(status).toBe('failure');
      expect(outputs.at(-1)).toMatch(/unexpected EOF/);
      const missing = await runJob(INSTANCE_COMMANDS.create, {
        nodeId: node.id,
        spec: spec('nope', 'does-not-exist:1'),
      });
      expect(missing.status).toBe('failure');
    });

    it('reports stats, no template storages, and unknown for a missing socket', async () => {
      const node = await addNode({
        name: 'docker-http',
        nodeType: 'engine',
        apiUrl: `http://127.0.0.1:${docker.port}`,
      });
      const stats = (await admin.get(`/sites/${siteId}/nodes/${node.id}/stats`)).body.data;
      expect(stats).toMatchObject({
        available: true,
        cpu: { cores: expect.any(Number) },
        memory: { total: expect.any(Number) },
      });
      expect((await admin.get(`/sites/${siteId}/nodes/${node.id}/storages`)).body.data).toEqual([]);
      const gone = await addNode({
        name: 'docker-gone',
        nodeType: 'engine',
        apiUrl: 'unix:///nonexistent/docker.sock',
      });
      const started = Date.now();
      expect((await instances(gone.id)).reachable).toBe(false);
      expect((await admin.get(`/sites/${siteId}/nodes/${gone.id}/stats`)).body.data.available).toBe(false);
      expect(Date.now() - started).toBeLessThan(3000);
    });
  });

  describe('node architecture', () => {
    const platformOf = async (nodeId: number) =>
      test.manager.services.providers.platform(await test.manager.services.nodes.connectionById(nodeId));

    it('is read live: Proxmox VE current-kernel.machine, Docker /info in uname names, Podman in Go names', async () => {
      pve.addNode({ name: 'pve-arm', machine: 'aarch64' });
      const armDocker = await new DockerFake({ architecture: 'armv7l' }).start();
      const armPodman = await new DockerFake({ flavor: 'podman', architecture: 'aarch64' }).start();
      try {
        const hypervisor = { nodeType: 'hypervisor', apiUrl: pve.url, tokenId: TOKEN, secret: SECRET };
        const nodes = {
          pveAmd: (await admin.get(`/sites/${siteId}/nodes`)).body.data.find(
            (node: { name: string }) => node.name === 'pve',
          ) as { id: number },
          pveArm: await addNode({ ...hypervisor, name: 'pve-arm', tlsVerify: false }),
          docker: await addNode({ name: 'arch-docker', nodeType: 'engine', apiUrl: armDocker.url }),
          podman: await addNode({ name: 'arch-podman', nodeType: 'engine', apiUrl: armPodman.url }),
          dummy: await addNode({ name: 'arch-dummy', nodeType: 'dummy' }),
        };
        expect({
          pveAmd: await platformOf(nodes.pveAmd.id),
          pveArm: await platformOf(nodes.pveArm.id),
          docker: await platformOf(nodes.docker.id),
          podman: await platformOf(nodes.podman.id),
          dummy: await platformOf(nodes.dummy.id),
        }).toEqual({
          pveAmd: { architecture: 'amd64' },
          pveArm: { architecture: 'arm64' },
          docker: { architecture: 'arm', variant: 'v7' },
          podman: { architecture: 'arm64' },
          dummy: { architecture: 'amd64' },
        });

        // An answer is kept: the node is not asked again.
        armDocker.clearRequests();
        expect(await platformOf(nodes.docker.id)).toEqual({ architecture: 'arm', variant: 'v7' });
        expect(armDocker.requests).toEqual([]);
      } finally {
        await Promise.all([armDocker.stop(), armPodman.stop()]);
      }
    });

    it('is amd64, without an error, when the node cannot be asked; that guess is not kept', async () => {
      const arm = await new DockerFake({ architecture: 'aarch64' }).start();
      try {
        const node = await addNode({ name: 'arch-flaky', nodeType: 'engine', apiUrl: arm.url });
        await arm.setUnreachable(true);
        const started = Date.now();
        expect(await platformOf(node.id)).toEqual({ architecture: 'amd64', assumed: expect.any(String) });
        expect(Date.now() - started).toBeLessThan(3000);
        await arm.setUnreachable(false);
        expect(await platformOf(node.id)).toEqual({ architecture: 'arm64' });
        const missing = await addNode({ name: 'arch-none', nodeType: 'engine', apiUrl: 'tcp://127.0.0.1:1' });
        expect((await platformOf(missing.id)).architecture).toBe('amd64');
      } finally {
        await arm.stop();
      }
    });
  });

  describe('import from a Proxmox VE cluster', () => {
    it('logs in with username and password, creates the nodes and imports their containers', async () => {
      const cluster = await startImportCluster('pw-123456');
      try {
        const site = (await admin.post('/sites', siteInput({ name: 'Imported' }))).body.data.id;
        const response = await admin.post(`/sites/${site}/nodes/import`, {
          apiUrl: cluster.url,
          username: 'root@pam',
          password: 'pw-123456',
          tlsFingerprint: cluster.fingerprint,
        });
        expect(response.status, response.text).toBe(201);
        expect(response.body.data.importedContainerCount).toBe(2);
        expect(response.body.data.nodes.map((n: { name: string }) => n.name).sort()).toEqual([
          'alpha',
          'beta',
        ]);
        expect(response.body.data.nodes[0]).toMatchObject({
          nodeType: 'hypervisor',
          tokenId: 'root@pam',
          hasSecret: true,
        });
        const rows = await test.manager.database.db
          .selectFrom('containers')
          .selectAll()
          .where('hostname', 'like', 'imported-%')
          .orderBy('hostname')
          .execute();
        expect(rows.map((row) => [row.hostname, row.container_id, row.mac_address])).toEqual([
          ['imported-a', '200', 'BC:24:11:00:02:00'],
          ['imported-b', '201', expect.any(String)],
        ]);

        const wrong = await admin.post(`/sites/${site}/nodes/import`, {
          apiUrl: cluster.url,
          username: 'root@pam',
          password: 'wrong',
          tlsFingerprint: cluster.fingerprint,
        });
        expect(wrong.status).toBe(502);
        expect(wrong.body.error.code).toBe('import_failed');
        const invalid = await admin.post(`/sites/${site}/nodes/import`, {
          apiUrl: cluster.url,
          username: 'root@pam',
        });
        expect(invalid.status).toBe(400);
        expect(invalid.body.error.code).toBe('invalid_request');
        expect(
          (
            await admin.post('/sites/9999/nodes/import', {
              apiUrl: cluster.url,
              username: 'a',
              password: 'b',
            })
          ).status,
        ).toBe(404);
      } finally {
        await cluster.stop();
      }
    });
  });
});
