import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxFake } from '@app/fakes';
import { adminClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { insertContainer } from './container-helpers.ts';
import { MetricsSampler } from '../src/metrics/metrics-sampler.ts';
import { MINUTE_S } from '../src/metrics/metrics-repository.ts';

const TOKEN = 'root@pam!manager';
const SECRET = '0b1d7c5e-3f0a-4d7e-9b64-2d6f0e9a1c11';
const MINUTE = 60_000;

/**
 * A gap in a Proxmox VE container's history (the manager was down for 20 minutes) is filled from what
 * the node recorded itself, `rrddata`, on the real clock the fake's record follows.
 */
describe('metrics history: gaps filled from the node’s own record', () => {
  let test: TestManager;
  let pve: ProxmoxFake;
  let sampler: MetricsSampler;
  let now = Date.now();
  const ids = { recent: 0, old: 0 };

  const rrdCalls = (since: number) =>
    pve.requests
      .slice(since)
      .map((r) => r.path)
      .filter((path) => path.endsWith('/rrddata'));
  /** The container's 1-minute samples strictly between `from` and `to`. */
  const minutes = async (id: number, from: number, to: number) =>
    (await test.manager.services.metricsHistory.repo.history('container', id, MINUTE_S, from + 1)).filter(
      (sample) => Number(sample.at_ms) < to,
    );

  beforeAll(async () => {
    pve = await new ProxmoxFake({ tokens: { [TOKEN]: SECRET }, taskDurationMs: 0 }).start();
    for (const vmid of [400, 401]) {
      const ct = pve.addContainer({ vmid, status: 'running', config: { hostname: `ct${vmid}`, cores: 2 } });
      ct.startedAt = Date.now() - 3 * 3600_000;
    }
    test = await startFleetManager({ METRICS_INTERVAL_S: '0' });
    const admin = await adminClient(test);
    const siteId = (await admin.post('/sites', siteInput())).body.data.id as number;
    const node = await admin.post(`/sites/${siteId}/nodes`, {
      name: pve.state.nodes.keys().next().value!,
      nodeType: 'proxmox',
      apiUrl: pve.url,
      tokenId: TOKEN,
      secret: SECRET,
    });
    expect(node.status, node.text).toBe(201);
    const adopt = (vmid: number) =>
      insertContainer(test, {
        hostname: `ct${vmid}`,
        nodeId: node.body.data.id,
        containerId: String(vmid),
        owner: 'admin',
      });
    ids.recent = await adopt(400);
    ids.old = await adopt(401);
    sampler = new MetricsSampler(
      test.manager.services.metricsHistory.repo,
      test.manager.services.nodes,
      test.manager.services.providers,
      { clock: () => now, owner: 'backfill-test', intervalMs: MINUTE },
      test.manager.app.log,
    );
  });
  afterAll(async () => {
    await test?.close();
    await pve?.stop();
  });

  it('fills the minutes since the last sample from rrddata, and asks nothing while rounds follow each other', async () => {
    const start = Date.now();
    // The last round before the outage: 20 minutes ago (ct401's last one: two hours ago, past rrddata's hour).
    now = start - 20 * MINUTE;
    await sampler.sampleOnce();
    const { db } = test.manager.database;
    await db
      .deleteFrom('metric_samples')
      .where('subject_type', '=', 'container')
      .where('subject_id', '=', ids.old)
      .execute();
    await db
      .updateTable('metric_latest')
      .set({ at_ms: start - 120 * MINUTE })
      .where('subject_type', '=', 'container')
      .where('subject_id', '=', ids.old)
      .execute();

    const before = pve.requests.length;
    now = start;
    await sampler.sampleOnce();
    expect(rrdCalls(before)).toEqual([
      `/api2/json/nodes/${pve.state.nodes.keys().next().value}/lxc/400/rrddata`,
    ]);
    const filled = await minutes(ids.recent, start - 20 * MINUTE, start);
    expect(filled.length).toBeGreaterThanOrEqual(18);
    expect(filled.length).toBeLessThanOrEqual(20);
    for (const sample of filled) {
      expect(Number(sample.at_ms) % MINUTE).toBe(0);
      // The fake's record: 1.23 % of 2 cores, an eighth of the memory, 1000 B/s in and 500 out.
      expect(Number(sample.cpu_pct)).toBeCloseTo(1.23, 2);
      expect(Number(sample.mem_pct)).toBeCloseTo(12.5, 5);
      expect([Number(sample.net_in_bps), Number(sample.net_out_bps)]).toEqual([1000, 500]);
    }
    // The older gap stays a gap.
    expect(await minutes(ids.old, start - 120 * MINUTE, start)).toEqual([]);

    const next = pve.requests.length;
    now = start + MINUTE;
    await sampler.sampleOnce();
    expect(rrdCalls(next)).toEqual([]);
  });
});
