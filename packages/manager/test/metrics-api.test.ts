import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { insertContainer } from './container-helpers.ts';

/** The metrics history and top-consumers routes: shapes, ranges, who may ask, bad input. */
describe('metrics API', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let alice: ManagerClient;
  let bob: ManagerClient;
  let siteId: number;
  let nodeId: number;
  const ct = { small: 0, large: 0 };

  beforeAll(async () => {
    test = await startFleetManager({ METRICS_INTERVAL_S: '0' });
    admin = await adminClient(test);
    alice = await userClient(test, admin, 'alice');
    bob = await userClient(test, admin, 'bob');
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    nodeId = (await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' })).body.data.id;
    const instance = (vmid: number, hostname: string, rootfsGb: number) => ({
      node_id: nodeId,
      vmid,
      hostname,
      state: 'running' as const,
      config: JSON.stringify({ resources: { cores: 2, memoryMb: 512, swapMb: 0, rootfsGb } }),
      created_at: new Date().toISOString(),
    });
    await test.manager.database.db
      .insertInto('dummy_instances')
      .values([instance(100, 'small', 4), instance(101, 'large', 8)])
      .execute();
    ct.small = await insertContainer(test, { hostname: 'small', nodeId, containerId: '100', owner: 'alice' });
    ct.large = await insertContainer(test, { hostname: 'large', nodeId, containerId: '101', owner: 'alice' });
    expect(await test.manager.services.metricsSampler.sampleOnce()).toBe(3);
  });
  afterAll(async () => {
    await test?.close();
  });

  const point = {
    at: expect.any(String),
    cpuCores: expect.any(Number),
    cpuPercent: expect.any(Number),
    memoryBytes: expect.any(Number),
    memoryPercent: expect.any(Number),
    diskBytes: expect.any(Number),
    diskPercent: expect.any(Number),
    netInBytesPerSecond: null,
    netOutBytesPerSecond: null,
  };

  it("answers a node's history to any signed-in user, minutes for 24h by default and hours for 60d", async () => {
    const day = await alice.get(`/sites/${siteId}/nodes/${nodeId}/metrics`);
    expect(day.status, day.text).toBe(200);
    expect(day.body.data).toEqual({ range: '24h', resolutionSeconds: 60, points: [point] });
    const sixty = await alice.get(`/sites/${siteId}/nodes/${nodeId}/metrics?range=60d`);
    expect(sixty.body.data).toEqual({ range: '60d', resolutionSeconds: 3600, points: [] });
    expect((await test.client().get(`/sites/${siteId}/nodes/${nodeId}/metrics`)).status).toBe(401);
  });

  it("answers a container's history to its owner and administrators; others are told it does not exist", async () => {
    const mine = await alice.get(`/sites/${siteId}/containers/${ct.small}/metrics?range=1h`);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data.points).toEqual([point]);
    expect(mine.body.data.points[0].diskPercent).toBe(25);
    expect((await admin.get(`/sites/${siteId}/containers/${ct.small}/metrics`)).status).toBe(200);
    const other = await bob.get(`/sites/${siteId}/containers/${ct.small}/metrics`);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
  });

  it('refuses an unknown range (400 with the field) and unknown nodes, containers and sites (404)', async () => {
    for (const path of [`nodes/${nodeId}/metrics?range=2y`, `containers/${ct.small}/metrics?range=1d`]) {
      const response = await admin.get(`/sites/${siteId}/${path}`);
      expect(response.status, path).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
      expect(Object.keys(response.body.error.fields ?? {}).join()).toContain('range');
    }
    expect((await admin.get(`/sites/${siteId}/nodes/99999/metrics`)).status).toBe(404);
    expect((await admin.get(`/sites/${siteId}/containers/99999/metrics`)).status).toBe(404);
    expect((await admin.get(`/sites/99999/nodes/${nodeId}/metrics`)).status).toBe(404);
    expect((await admin.get(`/sites/99999/metrics/top`)).status).toBe(404);
  });

  it("lists a site's top consumers to administrators, by the figure asked for", async () => {
    const top = await admin.get(`/sites/${siteId}/metrics/top?sort=disk`);
    expect(top.status, top.text).toBe(200);
    expect(top.body.data).toEqual([
      { containerId: ct.large, hostname: 'large', nodeName: 'sim1', lastAccessedAt: null, ...point },
      { containerId: ct.small, hostname: 'small', nodeName: 'sim1', lastAccessedAt: null, ...point },
    ]);
    const byCpu = (await admin.get(`/sites/${siteId}/metrics/top?sort=cpu`)).body.data as Array<{
      cpuPercent: number;
    }>;
    expect(byCpu).toHaveLength(2);
    expect(byCpu[0]!.cpuPercent).toBeGreaterThanOrEqual(byCpu[1]!.cpuPercent);
    const now = new Date().toISOString();
    await test.manager.database.db
      .insertInto('services')
      .values({
        container_id: ct.small,
        type: 'http',
        internal_port: 80,
        last_accessed_at: now,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const byAccess = await admin.get(`/sites/${siteId}/metrics/top?sort=lastAccess`);
    expect(byAccess.body.data.map((row: { hostname: string }) => row.hostname)).toEqual(['small', 'large']);
    expect(byAccess.body.data[0].lastAccessedAt).toBe(now);
    const one = await admin.get(`/sites/${siteId}/metrics/top?sort=memory&limit=1`);
    expect(one.body.data).toHaveLength(1);
    for (const query of ['sort=heat', 'limit=0', 'limit=501']) {
      const bad = await admin.get(`/sites/${siteId}/metrics/top?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.error.code).toBe('invalid_request');
    }
    const refused = await alice.get(`/sites/${siteId}/metrics/top`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
  });

  it('exposes each node and container’s latest figures on the Prometheus endpoint', async () => {
    const text = (await admin.get('/metrics')).text;
    expect(text).toMatch(/^# TYPE manager_usage_cpu_percent gauge$/m);
    expect(text).toMatch(
      new RegExp(`^manager_usage_disk_percent\\{subject="container",id="${ct.small}"\\} 25$`, 'm'),
    );
    expect(text).toMatch(
      new RegExp(`^manager_usage_memory_bytes\\{subject="node",id="${nodeId}"\\} \\d+`, 'm'),
    );
    // Traffic needs two samples: no series yet rather than a made-up zero.
    expect(text).not.toMatch(/^manager_usage_network_receive_bytes_per_second\{/m);
  });
});
