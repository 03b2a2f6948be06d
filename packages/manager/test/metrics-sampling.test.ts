import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCKER_SIMULATED_USAGE, DockerFake, ProxmoxFake } from '@app/fakes';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { insertContainer } from './container-helpers.ts';
import { MetricsSampler } from '../src/metrics/metrics-sampler.ts';
import { MetricsHistory } from '../src/metrics/metrics-history.ts';
import { HOUR_S, MINUTE_S, type SubjectSample } from '../src/metrics/metrics-repository.ts';
import { DUMMY_TRAFFIC } from '../src/providers/dummy/dummy-usage.ts';

const TOKEN = 'root@pam!manager';
const SECRET = '0b1d7c5e-3f0a-4d7e-9b64-2d6f0e9a1c11';
const MiB = 1024 ** 2;
const MINUTE = 60_000;
const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** The test's clock: a whole hour, so samples fall in known hours. */
const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);

/** Metrics sampling from the three node kinds, stored, rolled up and pruned with a clock the test moves. */
describe('metrics sampling and history', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let pve: ProxmoxFake;
  let docker: DockerFake;
  let now = T0;
  const clock = () => now;
  const ids = { dummyNode: 0, engineNode: 0, pveNode: 0, dummyCt: 0, engineCt: 0, pveCt: 0 };
  let engineInstance = '';

  const newSampler = (owner: string) =>
    new MetricsSampler(
      test.manager.services.metricsHistory.repo,
      test.manager.services.nodes,
      test.manager.services.providers,
      { clock, owner, intervalMs: MINUTE },
      test.manager.app.log,
    );
  /** This process's sampler: it keeps the previous round's counters. */
  let mine: MetricsSampler;
  const sampler = (owner?: string) => (owner ? newSampler(owner) : mine);
  const history = () => new MetricsHistory(test.manager.services.metricsHistory.repo, clock);
  const latest = async (type: 'node' | 'container', id: number) =>
    (await test.manager.services.metricsHistory.repo.latest()).find(
      (row) => row.subject_type === type && row.subject_id === id,
    );
  /** Both fakes' running containers have run a minute longer (their counters grew by a minute's traffic). */
  const aMinutePasses = () => {
    now += MINUTE;
    pve.state.containers.get(300)!.startedAt! -= MINUTE;
    docker.container(engineInstance).startedMs -= MINUTE;
  };

  beforeAll(async () => {
    pve = await new ProxmoxFake({ tokens: { [TOKEN]: SECRET }, taskDurationMs: 0 }).start();
    pve.addContainer({
      vmid: 300,
      status: 'running',
      config: { hostname: 'pve-ct', cores: 2, memory: 1024 },
    });
    pve.addContainer({ vmid: 301, config: { hostname: 'pve-stopped' } });
    docker = await new DockerFake().start();
    docker.addImage('app:1');
    const made = await fetch(`${docker.url}/containers/create?name=engine-ct`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Image: 'app:1', HostConfig: { Memory: 256 * MiB } }),
    });
    engineInstance = ((await made.json()) as { Id: string }).Id;
    expect((await fetch(`${docker.url}/containers/${engineInstance}/start`, { method: 'POST' })).status).toBe(
      204,
    );

    test = await startFleetManager({ METRICS_INTERVAL_S: '0' });
    admin = await adminClient(test);
    const siteId = (await admin.post('/sites', siteInput())).body.data.id as number;
    const node = async (body: Record<string, unknown>) => {
      const response = await admin.post(`/sites/${siteId}/nodes`, body);
      expect(response.status, response.text).toBe(201);
      return response.body.data.id as number;
    };
    ids.dummyNode = await node({ name: 'sim1', nodeType: 'dummy' });
    ids.engineNode = await node({ name: 'eng1', nodeType: 'engine', apiUrl: docker.url });
    const pveNodeName = pve.state.nodes.keys().next().value!;
    ids.pveNode = await node({
      name: pveNodeName,
      nodeType: 'proxmox',
      apiUrl: pve.url,
      tokenId: TOKEN,
      secret: SECRET,
    });
    await test.manager.database.db
      .insertInto('dummy_instances')
      .values({
        node_id: ids.dummyNode,
        vmid: 100,
        hostname: 'sim-ct',
        state: 'running',
        config: JSON.stringify({ resources: { cores: 2, memoryMb: 1024, swapMb: 0, rootfsGb: 8 } }),
        created_at: new Date().toISOString(),
      })
      .execute();
    const adopt = (hostname: string, nodeId: number, containerId: string) =>
      insertContainer(test, { hostname, nodeId, containerId, owner: 'admin' });
    ids.dummyCt = await adopt('sim-ct', ids.dummyNode, '100');
    ids.engineCt = await adopt('engine-ct', ids.engineNode, engineInstance);
    ids.pveCt = await adopt('pve-ct', ids.pveNode, '300');
    await adopt('pve-stopped', ids.pveNode, '301');
    mine = newSampler('test-sampler');
  });
  afterAll(async () => {
    await test?.close();
    await Promise.all([pve?.stop(), docker?.stop()]);
  });

  it('samples every node once per round with its running containers, as figures and percentages of the allocation', async () => {
    expect(await sampler().sampleOnce()).toBe(6);
    aMinutePasses();
    expect(await sampler().sampleOnce()).toBe(6);

    const sim = (await latest('container', ids.dummyCt))!;
    expect(Number(sim.at_ms)).toBe(T0 + MINUTE);
    expect(sim.cpu_pct).toBeGreaterThanOrEqual(10);
    expect(sim.cpu_pct).toBeLessThanOrEqual(30);
    expect(sim.cpu_cores! / 2).toBeCloseTo(sim.cpu_pct! / 100, 6);
    expect(Number(sim.disk_bytes)).toBe(2 * 1024 ** 3);
    expect(sim.disk_pct).toBe(25);
    expect(sim.net_in_bps).toBe(DUMMY_TRAFFIC.inPerS);
    expect(sim.net_out_bps).toBe(DUMMY_TRAFFIC.outPerS);

    const eng = (await latest('container', ids.engineCt))!;
    expect(eng.cpu_cores).toBeCloseTo(DOCKER_SIMULATED_USAGE.cores, 6);
    expect(Number(eng.mem_bytes)).toBe(DOCKER_SIMULATED_USAGE.memory);
    expect(eng.mem_pct).toBe(25);
    expect(eng.disk_bytes).toBeNull();
    expect(eng.net_in_bps).toBeGreaterThanOrEqual(1000);
    expect(eng.net_in_bps).toBeLessThan(1050);

    const ct = (await latest('container', ids.pveCt))!;
    expect(ct.mem_pct).toBe(12.5);
    expect(Number(ct.mem_bytes)).toBe(128 * MiB);
    expect(ct.disk_pct).toBe(6.25);
    expect(ct.net_in_bps).toBeGreaterThanOrEqual(1000);
    expect(ct.net_out_bps).toBeGreaterThanOrEqual(500);

    // A node without traffic figures of its own has its containers' together: the dummy node's one
    // running container, the engine's one.
    expect((await latest('node', ids.dummyNode))!.net_in_bps).toBe(DUMMY_TRAFFIC.inPerS);
    expect((await latest('node', ids.engineNode))!.net_in_bps).toBe(eng.net_in_bps);

    const pveNode = (await latest('node', ids.pveNode))!;
    expect(pveNode.cpu_pct).not.toBeNull();
    expect(pveNode.mem_pct).not.toBeNull();
    expect(pveNode.net_in_bps).toBeNull();
    expect((await latest('node', ids.engineNode))!.cpu_cores).toBeCloseTo(DOCKER_SIMULATED_USAGE.cores, 6);

    const minutes = await history().history('container', ids.dummyCt, '1h');
    expect(minutes.resolutionSeconds).toBe(MINUTE_S);
    expect(minutes.points.map((p) => p.at)).toEqual([
      new Date(T0).toISOString(),
      new Date(T0 + MINUTE).toISOString(),
    ]);
    expect(minutes.points[0]!.netInBytesPerSecond).toBeNull();
  });

  it('asks a Proxmox VE node once per round, with /cluster/resources, whatever its number of containers', async () => {
    const before = pve.requests.length;
    aMinutePasses();
    await sampler().sampleOnce();
    const calls = pve.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(calls).toEqual(['GET /api2/json/cluster/resources']);
  });

  it('counts a container that starts between rounds from its second reading, not as a spike on its node', async () => {
    const removeUnheld = () => test.manager.database.db.deleteFrom('dummy_instances').where('vmid', '=', 101);
    await test.manager.database.db
      .insertInto('dummy_instances')
      .values({
        node_id: ids.dummyNode,
        vmid: 101,
        hostname: 'sim-unheld',
        state: 'running',
        config: JSON.stringify({ resources: { cores: 1, memoryMb: 512, swapMb: 0, rootfsGb: 4 } }),
        created_at: new Date().toISOString(),
      })
      .execute();
    try {
      aMinutePasses();
      await sampler().sampleOnce();
      expect((await latest('node', ids.dummyNode))!.net_in_bps).toBe(DUMMY_TRAFFIC.inPerS);
      aMinutePasses();
      await sampler().sampleOnce();
      expect((await latest('node', ids.dummyNode))!.net_in_bps).toBe(2 * DUMMY_TRAFFIC.inPerS);
    } finally {
      await removeUnheld().execute();
    }
  });

  it('samples in one process only: another owner waits until the lease has run out', async () => {
    aMinutePasses();
    expect(await sampler('other-process').sampleOnce()).toBe(0);
    now += 3 * MINUTE;
    expect(await sampler('other-process').sampleOnce()).toBe(6);
    expect(await sampler().sampleOnce()).toBe(0);
  });

  it('rolls whole hours up into hourly averages, then prunes minutes after 2 days and hours after 60 days', async () => {
    const repo = test.manager.services.metricsHistory.repo;
    const subject = 999_001;
    const hour = T0 + 3 * HOUR;
    const sample = (cpu: number, mem: number): SubjectSample => ({
      subject_type: 'container',
      subject_id: subject,
      cpu_cores: cpu,
      cpu_pct: cpu * 50,
      mem_bytes: mem,
      mem_pct: null,
      disk_bytes: null,
      disk_pct: null,
      net_in_bps: 100,
      net_out_bps: null,
    });
    await repo.record(hour, [sample(1, 100)]);
    await repo.record(hour + 30 * MINUTE, [sample(2, 201)]);
    await repo.record(hour + HOUR, [sample(4, 400)]);

    now = hour + HOUR + 5 * MINUTE;
    const first = await history().maintain();
    expect(first.hourly).toBeGreaterThanOrEqual(1);
    const week = await history().history('container', subject, '7d');
    expect(week.resolutionSeconds).toBe(HOUR_S);
    expect(week.points).toEqual([
      expect.objectContaining({
        at: new Date(hour).toISOString(),
        cpuCores: 1.5,
        cpuPercent: 75,
        memoryBytes: 151,
        memoryPercent: null,
        netInBytesPerSecond: 100,
      }),
    ]);
    // Run again in the same hour: nothing new, nothing twice.
    expect((await history().maintain()).hourly).toBe(0);

    now = hour + 2 * HOUR + MINUTE;
    await history().maintain();
    expect((await history().history('container', subject, '7d')).points.map((p) => p.cpuCores)).toEqual([
      1.5, 4,
    ]);

    now = hour + 2 * DAY + 45 * MINUTE;
    const pruned = await history().maintain();
    expect(pruned.minutesPruned).toBeGreaterThanOrEqual(2);
    expect((await history().history('container', subject, '60d')).points).toHaveLength(2);
    const remaining = await repo.history('container', subject, MINUTE_S, 0);
    expect(remaining.map((r) => Number(r.at_ms))).toEqual([hour + HOUR]);
    // The containers sampled at the start are not any more: their latest figures are gone.
    expect(await latest('container', ids.dummyCt)).toBeUndefined();

    now = hour + 60 * DAY + HOUR + MINUTE;
    expect((await history().maintain()).hoursPruned).toBeGreaterThanOrEqual(2);
    expect(await repo.history('container', subject, HOUR_S, 0)).toEqual([]);
  });
});
