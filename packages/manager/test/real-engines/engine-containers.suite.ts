import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAndWait, envVars, jobEnds, resize, setEnvironmentAndWait } from '../container-helpers.ts';
import { eventually, siteInput } from '../fleet-helpers.ts';
import { engineCall } from './engine-api.ts';
import {
  createWithAgent,
  imageServices,
  engineSite,
  removeEngineSite,
  type EngineSite,
} from './engine-fixture.ts';
import { flakyEngine } from './flaky-engine.ts';
import { tcpAnswer } from './tcp-answer.ts';
import { TEST_IMAGE } from './test-image.ts';

const { engines, registry, image, index } = inject('realEngines');

interface Inspected {
  Id: string;
  State: { Running: boolean; StartedAt: string; Status: string };
  Config: { Env: string[] };
  HostConfig: { NanoCpus: number; Memory: number };
  Mounts: Array<{ Source: string; Destination: string }>;
  NetworkSettings: { Networks: Record<string, { IPAddress: string; MacAddress: string }> };
}

/** The names of every container on the engine (`/name`). */
const containerNames = async (socket: string) =>
  ((await engineCall(socket, 'GET', '/containers/json?all=1')).body as Array<{ Names: string[] }>).flatMap(
    (container) => container.Names,
  );

/** An HTTP GET from this host to the container on a new connection, retried while its server starts. */
const fromHost = (url: string) =>
  eventually(
    () =>
      new Promise<string | undefined>((resolve) => {
        const req = get(url, { agent: false, timeout: 3000 }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve(body));
          res.on('error', () => resolve(undefined));
        });
        req.on('timeout', () => req.destroy());
        req.on('error', () => resolve(undefined));
      }),
  );

describe.each(engines.map((engine, index) => ({ ...engine, subnet: `10.231.${index + 1}` })))(
  'containers on a real $name engine, through the manager API',
  ({ name, socket, subnet }) => {
    let site: EngineSite | undefined;
    const inspect = async (id: string) => {
      const reply = await engineCall(socket, 'GET', `/containers/${id}/json`);
      return { status: reply.status, body: reply.body as Inspected };
    };
    const base = () => `/sites/${site!.siteId}/containers`;

    beforeAll(async () => {
      site = await engineSite(socket, subnet, registry);
    });
    afterAll(() => removeEngineSite(site, socket, image));

    it('adds the engine node: its stats are the host’s, it has no template storages', async () => {
      const { admin, siteId, nodeId } = site!;
      const stats = (await admin.get(`/sites/${siteId}/nodes/${nodeId}/stats`)).body.data;
      const info = (await engineCall(socket, 'GET', '/info')).body as { NCPU: number; MemTotal: number };
      expect(stats).toMatchObject({
        available: true,
        cpu: { cores: info.NCPU },
        memory: { total: info.MemTotal },
      });
      expect((await admin.get(`/sites/${siteId}/nodes/${nodeId}/storages`)).body.data).toEqual([]);
    });

    it('reads the image’s ports and environment from the local registry (its volume shows at create)', async () => {
      const { admin } = site!;
      const metadata = await admin.get(`${base()}/metadata?image=${encodeURIComponent(image)}`);
      expect(metadata.status, metadata.text).toBe(200);
      expect(metadata.body.data).toMatchObject({
        ports: [
          { port: TEST_IMAGE.tcpPort, protocol: 'tcp' },
          { port: TEST_IMAGE.httpPort, protocol: 'tcp' },
        ],
        env: envVars(TEST_IMAGE.env),
      });
    });

    it('picks the platform’s image from a multi-platform index: the node’s (amd64) unless asked', async () => {
      const { admin } = site!;
      const greeting = async (query: string) => {
        const metadata = await admin.get(`${base()}/metadata?image=${encodeURIComponent(index)}${query}`);
        expect(metadata.status, metadata.text).toBe(200);
        return (metadata.body.data.env as Array<{ key: string; value: string }>).find(
          (e) => e.key === 'GREETING',
        );
      };
      expect(await greeting('')).toEqual({ key: 'GREETING', value: 'image' });
      expect(await greeting('&arch=arm64')).toEqual({ key: 'GREETING', value: 'arm64' });
    });

    let created: { id: number; containerId: string; ipv4Address: string; macAddress: string };
    it('creates with HTTP and TCP services, environment and a volume: running at the address the manager reports', async () => {
      const { admin, domainId } = site!;
      const { containerId, status, outputs } = await createWithAgent(site!, site!.siteId, {
        hostname: 're-web1',
        template: image,
        environmentVars: envVars({ GREETING: 'first' }),
        services: imageServices(`re-web1-${name}`, domainId),
      });
      expect(status, outputs.join('\n')).toBe('success');
      created = (await admin.get(`${base()}/${containerId}`)).body.data;
      expect(created).toMatchObject({ status: 'running' });

      const engine = await inspect(created.containerId);
      expect(engine.body.State.Running).toBe(true);
      expect(engine.body.NetworkSettings.Networks).toEqual({
        [site!.network]: expect.objectContaining({
          IPAddress: created.ipv4Address,
          MacAddress: created.macAddress.toLowerCase(),
        }),
      });
      expect(engine.body.Config.Env).toContain('GREETING=first');
      // The default 4 CPUs, on a host with fewer (this CI machine has 2): all of the host's, with a warning.
      const { NCPU } = (await engineCall(socket, 'GET', '/info')).body as { NCPU: number };
      expect(engine.body.HostConfig.NanoCpus).toBe(Math.min(4, NCPU) * 1e9);
      if (NCPU < 4)
        expect(outputs).toContain(
          `Warning: 4 CPUs asked for, but node engine1 has ${NCPU}; the container may use all ${NCPU}.`,
        );
      expect(engine.body.Mounts).toEqual([
        expect.objectContaining({
          Destination: TEST_IMAGE.volume,
          Source: expect.stringContaining(site!.storageRoot),
        }),
      ]);

      expect(await fromHost(`http://${created.ipv4Address}:${TEST_IMAGE.httpPort}/`)).toBe(
        'hello from a real engine\n',
      );
      expect(await tcpAnswer(created.ipv4Address, TEST_IMAGE.tcpPort)).toBe('tcp-ok\n');
    });

    it('restarts it: a new process, still at its address', async () => {
      const { admin } = site!;
      const before = (await inspect(created.containerId)).body.State.StartedAt;
      const response = await admin.put(`${base()}/${created.id}`, { restart: true });
      expect(response.status, response.text).toBe(200);
      expect(await jobEnds(admin, response.body.data.jobId)).toBe('success');
      const after = (await inspect(created.containerId)).body;
      expect(after.State.Running).toBe(true);
      expect(after.State.StartedAt).not.toBe(before);
      expect(await fromHost(`http://${created.ipv4Address}:${TEST_IMAGE.httpPort}/`)).toContain('hello');
    });

    it('reconfigures the environment: the recreated container serves the new value at the same address and MAC', async () => {
      const { admin } = site!;
      const changed = await setEnvironmentAndWait(admin, site!.siteId, created.id, { GREETING: 'second' });
      const now = changed.container as typeof created;
      expect(now.containerId).not.toBe(created.containerId);
      expect((await inspect(created.containerId)).status).toBe(404);
      const engine = (await inspect(now.containerId)).body;
      expect(engine.NetworkSettings.Networks[site!.network]).toMatchObject({
        IPAddress: created.ipv4Address,
        MacAddress: created.macAddress.toLowerCase(),
      });
      expect(engine.State.Running, JSON.stringify([engine.State, engine.Config])).toBe(true);
      expect(await fromHost(`http://${created.ipv4Address}:${TEST_IMAGE.httpPort}/cgi-bin/env`)).toBe(
        'greeting=second\n',
      );
      created = now;
    });

    it('changes its CPUs and memory: the engine holds the new limits, the container runs at the same address and MAC', async () => {
      const cpus = await resize(site!.test, site!.admin, site!.siteId, 're-web1', 'cpus', 1);
      expect(cpus.status, cpus.outputs.join('\n')).toBe('success');
      const memory = await resize(site!.test, site!.admin, site!.siteId, 're-web1', 'memory', 512);
      expect(memory.status, memory.outputs.join('\n')).toBe('success');
      const now = (await site!.admin.get(`${base()}/${created.id}`)).body.data as typeof created;
      const engine = (await inspect(now.containerId)).body;
      expect(engine.HostConfig).toMatchObject({ NanoCpus: 1e9, Memory: 512 * 1024 * 1024 });
      expect(engine.State.Running).toBe(true);
      expect(engine.NetworkSettings.Networks[site!.network]).toMatchObject({
        IPAddress: created.ipv4Address,
        MacAddress: created.macAddress.toLowerCase(),
      });
      expect(engine.Mounts).toEqual([expect.objectContaining({ Destination: TEST_IMAGE.volume })]);
      expect(await fromHost(`http://${created.ipv4Address}:${TEST_IMAGE.httpPort}/cgi-bin/env`)).toBe(
        'greeting=second\n',
      );
      created = now;
    });

    it('deletes it: nothing of it is left on the engine', async () => {
      const { admin } = site!;
      const response = await admin.delete(`${base()}/${created.id}`);
      expect(response.status, response.text).toBe(200);
      expect((await inspect(created.containerId)).status).toBe(404);
      expect(await containerNames(socket)).not.toContain('/re-web1');
    });

    it('fails a create from an image the registry does not have, cleanly: the error in the job, nothing on the engine', async () => {
      const { admin } = site!;
      const missing = `${registry}/fleet-test/missing:1`;
      const { status, outputs, container } = await createAndWait(admin, site!.siteId, {
        hostname: 're-missing1',
        template: missing,
      });
      expect(status).toBe('failure');
      expect(container.status).toBe('failed');
      expect(outputs.at(-1)).toMatch(/^Error: pull .*fleet-test\/missing:1: .*(not found|unknown)/i);
      expect(await containerNames(socket)).not.toContain('/re-missing1');
    });

    it('the engine going away between create and start: the job fails, and once it is back nothing is left', async () => {
      const { admin } = site!;
      const flaky = await flakyEngine(socket, 3000);
      try {
        // A second site on the same subnet (addresses are allocated across sites), whose node is the proxy.
        const other = await admin.post(
          '/sites',
          siteInput({
            name: `Flaky ${name}`,
            dhcpRange: `${subnet}.100,${subnet}.200`,
            gateway: `${subnet}.1`,
          }),
        );
        const siteId = other.body.data.id as number;
        const node = await admin.post(`/sites/${siteId}/nodes`, {
          name: 'flaky1',
          nodeType: 'engine',
          apiUrl: `unix://${flaky.socketPath}`,
          volumeStorage: 'volumes',
        });
        expect(node.status, node.text).toBe(201);
        const { status, outputs } = await createWithAgent(site!, siteId, {
          hostname: 're-flaky1',
          template: image,
        });
        expect(flaky.tripped()).toBe(true);
        expect(status, outputs.join('\n')).toBe('failure');
        expect(outputs).toContainEqual(
          expect.stringMatching(/^Removing container \w+ after the failed create$/),
        );
        expect(outputs.filter((line) => line.startsWith('Warning: container'))).toEqual([]);
        expect(await containerNames(socket)).not.toContain('/re-flaky1');
      } finally {
        await flaky.close();
      }
    });
  },
);
