import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerFake, ProxmoxFake, RegistryFake } from '@app/fakes';
import { adminClient, uidNumberOf, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, siteInput, startFleetManager } from './fleet-helpers.ts';
import { createAndWait, jobOutputs } from './container-helpers.ts';
import { INSTANCE_COMMANDS } from '../src/providers/provider-jobs.ts';

const MiB = 1024 * 1024;
const TOKEN = 'root@pam!manager';
const SECRET = '3d0c9a8b-7e6f-4a5b-9c8d-1e2f3a4b5c6d';

const json = (value: unknown) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

/** Registries, nodes and engines are not ours: what they send is read within bounds. */
describe('answers from registries and nodes are bounded', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let registry: RegistryFake;
  let pve: ProxmoxFake;
  let docker: DockerFake;
  let dummySite: number;
  let pveSite: number;
  let pveNode: number;
  let engineSite: number;
  let engineNode: number;

  beforeAll(async () => {
    registry = await new RegistryFake().start();
    pve = await new ProxmoxFake({ nodes: ['pve1'], tokens: { [TOKEN]: SECRET }, taskDurationMs: 0 }).start();
    docker = await new DockerFake().start();
    test = await startFleetManager({ REGISTRY_MIRROR: registry.url });
    admin = await adminClient(test);
    const site = async (name: string, net: string) =>
      (
        await admin.post(
          '/sites',
          siteInput({ name, dhcpRange: `${net}.100,${net}.200`, gateway: `${net}.1` }),
        )
      ).body.data.id as number;
    const node = async (siteId: number, body: Record<string, unknown>) => {
      const created = await admin.post(`/sites/${siteId}/nodes`, body);
      expect(created.status, created.text).toBe(201);
      return created.body.data.id as number;
    };
    dummySite = await site('Dummy', '10.1.0');
    await node(dummySite, { name: 'sim1', nodeType: 'dummy' });
    pveSite = await site('Pve', '10.2.0');
    pveNode = await node(pveSite, { name: 'pve1', apiUrl: pve.url, tokenId: TOKEN, secret: SECRET });
    engineSite = await site('Engine', '10.3.0');
    engineNode = await node(engineSite, {
      name: 'docker1',
      nodeType: 'engine',
      apiUrl: `http://127.0.0.1:${docker.port}`,
    });
  });
  afterAll(async () => {
    await test.close();
    await Promise.all([registry.stop(), pve.stop(), docker.stop()]);
  });

  describe('images', () => {
    it('an image with 300 VOLUMEs gives at most 32 volumes; a too-long mount path is left out; the job says so', async () => {
      const long = `/${'d'.repeat(300)}`;
      const paths = [long, ...Array.from({ length: 300 }, (_, index) => `/data/v${index}`)];
      registry.addImage('acme/many', '1', {
        config: { Volumes: Object.fromEntries(paths.map((path) => [path, {}])) },
      });
      const { status, outputs, container } = await createAndWait(admin, dummySite, {
        hostname: 'many1',
        template: `${registry.host}/acme/many:1`,
      });
      expect(status, outputs.join('\n')).toBe('success');
      const volumes = await test.manager.database.db
        .selectFrom('volumes')
        .select('mount_path')
        .where('container_id', '=', container.id)
        .execute();
      expect(volumes).toHaveLength(32);
      expect(volumes.map((volume) => volume.mount_path)).not.toContain(long);
      expect(outputs).toContainEqual(expect.stringMatching(/longer than 256 characters/));
      expect(outputs).toContainEqual(
        expect.stringMatching(/declares 301 volumes.*at most 32.*268 were left out/),
      );
    });

    it('image metadata keeps at most 128 variables of bounded length', async () => {
      registry.addImage('acme/env', '1', {
        config: {
          Env: [`HUGE=${'v'.repeat(5000)}`, ...Array.from({ length: 200 }, (_, index) => `VAR${index}=x`)],
        },
      });
      const answer = await admin.get(
        `/sites/${dummySite}/containers/metadata?image=${encodeURIComponent(`${registry.host}/acme/env:1`)}`,
      );
      expect(answer.status, answer.text).toBe(200);
      const env = answer.body.data.env as Array<{ key: string; value: string }>;
      expect(env).toHaveLength(128);
      expect(env.map((entry) => entry.key)).not.toContain('HUGE');
    });

    it('a registry answer larger than 4 MiB is refused with a clear error', async () => {
      registry.addImage('acme/big', '1', { config: { ExposedPorts: { '80/tcp': {} } } });
      registry.replyNext(1, { path: /\/blobs\//, reply: json({ config: {}, pad: 'x'.repeat(5 * MiB) }) });
      const answer = await admin.get(
        `/sites/${dummySite}/containers/metadata?image=${encodeURIComponent(`${registry.host}/acme/big:1`)}`,
      );
      expect(answer.status).toBe(502);
      expect(answer.body.error).toMatchObject({
        code: 'registry_error',
        message: expect.stringMatching(/4 MiB/),
      });
    });

    it('container variables are bounded in number and length (400)', async () => {
      const many = Array.from({ length: 129 }, (_, index) => ({ key: `V${index}`, value: 'x' }));
      const tooMany = await admin.post(`/sites/${dummySite}/containers`, {
        hostname: 'env1',
        template: 'debian:12',
        environmentVars: many,
      });
      expect(tooMany.status, tooMany.text).toBe(400);
      expect(tooMany.body.error.code).toBe('invalid_request');
      const tooLong = await admin.post(`/sites/${dummySite}/containers`, {
        hostname: 'env1',
        template: 'debian:12',
        environmentVars: [{ key: 'LONG', value: 'x'.repeat(4097) }],
      });
      expect(tooLong.status, tooLong.text).toBe(400);
    });
  });

  describe('Proxmox VE', () => {
    it('an answer larger than 16 MiB is refused with a clear reason', async () => {
      pve.replyNext(1, {
        path: '/api2/json/nodes/pve1/status',
        reply: json({ data: { cpu: 0.1, pad: 'x'.repeat(17 * MiB) } }),
      });
      const stats = (await admin.get(`/sites/${pveSite}/nodes/${pveNode}/stats`)).body.data;
      expect(stats.available).toBe(false);
      expect(stats.reason).toMatch(/larger than 16 MiB/);
    });

    it('task log lines are cut at 4096 characters and at most 1000 are copied into the job', async () => {
      pve.addContainer({ vmid: 300, node: 'pve1' });
      const total = 1500;
      pve.replyNext(100, {
        path: '/api2/json/nodes/pve1/tasks/*/log',
        reply: (req) => {
          const start = Number(req.query.get('start') ?? 0);
          const limit = Number(req.query.get('limit') ?? 50);
          const lines = [];
          for (let n = start + 1; n <= Math.min(start + limit, total); n++)
            lines.push({ n, t: n <= 2 ? `long ${'y'.repeat(10_000)}` : `line ${n}` });
          return json({ data: lines, total });
        },
      });
      const job = await test.manager.services.jobs.enqueue(
        INSTANCE_COMMANDS.start,
        { nodeId: pveNode, containerId: '300' },
        await uidNumberOf(test, 'admin'),
      );
      const status = await eventually(async () => {
        const current = await test.manager.services.jobs.repo.statusOf(job.id);
        return current === 'success' || current === 'failure' ? current : undefined;
      }, 20_000);
      pve.clearFailures();
      const rest = (await admin.get(`/jobs/${job.id}/status?offset=1000`)).body.data as Array<{
        output: string;
      }>;
      const outputs = [...(await jobOutputs(admin, job.id)), ...rest.map((row) => row.output)];
      expect(status, outputs.slice(-3).join('\n')).toBe('success');
      expect(outputs[0]!.length).toBeLessThanOrEqual(4097);
      expect(outputs[0]).toMatch(/^long y+…$/);
      expect(outputs.filter((line) => line.startsWith('line ') || line.startsWith('long '))).toHaveLength(
        1000,
      );
      expect(outputs).toContainEqual(expect.stringMatching(/task log has more than 1000 lines/));
    });
  });

  describe('container engine', () => {
    it('an answer larger than 16 MiB is refused with a clear reason', async () => {
      docker.replyNext(1, { path: /\/info$/, reply: json({ NCPU: 4, pad: 'x'.repeat(17 * MiB) }) });
      const stats = (await admin.get(`/sites/${engineSite}/nodes/${engineNode}/stats`)).body.data;
      expect(stats.available).toBe(false);
      expect(stats.reason).toMatch(/larger than 16 MiB/);
    });

    /** Serves a pull whose progress stream is `chunks`. */
    const pullAnswer = (chunks: () => AsyncIterable<Buffer>) =>
      docker.replyNext(1, {
        method: 'POST',
        path: /\/images\/create$/,
        reply: { status: 200, headers: { 'content-type': 'application/json' }, body: chunks() },
      });

    it('a pull-progress line longer than 1 MiB fails the pull with a clear message', async () => {
      pullAnswer(async function* () {
        for (let i = 0; i < 3; i++) yield Buffer.from('z'.repeat(MiB));
      });
      const { status, outputs } = await createAndWait(admin, engineSite, {
        hostname: 'pull1',
        template: 'app:1',
      });
      expect(status).toBe('failure');
      expect(outputs.join('\n')).toMatch(/progress line longer than 1 MiB/);
    });

    it('a pull-progress stream past 64 MiB is stopped with a clear message', async () => {
      const line = Buffer.from(
        `${JSON.stringify({ status: 'Downloading', id: 'layer1', progress: 'p'.repeat(1000) })}\n`,
      );
      const chunk = Buffer.concat(Array.from({ length: 64 }, () => line));
      pullAnswer(async function* () {
        for (let sent = 0; sent <= 65 * MiB; sent += chunk.length) yield chunk;
      });
      const { status, outputs } = await createAndWait(admin, engineSite, {
        hostname: 'pull2',
        template: 'app:1',
      });
      expect(status).toBe('failure');
      expect(outputs.join('\n')).toMatch(/pull output passed 64 MiB/);
    });
  });
});
