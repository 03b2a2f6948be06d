// Metrics history (issue 18). 1) Sampling: 20 Proxmox VE nodes x 100 containers (a third stopped, as
// the fixture makes them), the fakes answering after 50 ms in a child process; ROUNDS sampling rounds,
// the manager's CPU per round against its 60 s interval (goal < 5 % of one core). 2) Storage: a
// container's full 60-day history (2 days of 1-minute samples + 60 days of hourly averages) written
// for STORAGE_CONTAINERS containers; bytes per container (table + indexes). 3) The container page's
// 60-day query through the API: p50/p90 over RUNS (goal < 50 ms). SQLite unless MANAGER_DATABASE_URL
// / TEST_DATABASE_URL says PostgreSQL.
import { sql } from 'kysely';
import { adminClient, startManager } from '../test/helpers.ts';
import { siteInput } from '../test/fleet-helpers.ts';
import { insertContainers } from '../test/container-helpers.ts';
import { addPveNodes, startPveFleet } from './fixtures/pve-fleet-process.ts';
import { MetricsSampler } from '../src/metrics/metrics-sampler.ts';
import { FIGURES, HOUR_S, MINUTE_S } from '../src/metrics/metrics-repository.ts';

const NODES = Number(process.env.NODES ?? 20);
const PER_NODE = Number(process.env.PER_NODE ?? 100);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 50);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const STORAGE_CONTAINERS = Number(process.env.STORAGE_CONTAINERS ?? 20);
const RUNS = Number(process.env.RUNS ?? 40);
const INTERVAL_MS = 60_000;

const { apiUrls, child } = await startPveFleet({
  nodes: NODES,
  perNode: PER_NODE,
  latencyMs: LATENCY_MS,
});
const test = await startManager({ METRICS_INTERVAL_S: '0', NODE_TIMEOUT_MS: '10000' });
try {
  const admin = await adminClient(test);
  const siteId = (await admin.post('/sites', siteInput())).body.data.id as number;
  let vmid = 100;
  for (const node of await addPveNodes(admin, siteId, apiUrls)) {
    const nodeId = node.id;
    await insertContainers(
      test,
      'admin',
      Array.from({ length: PER_NODE }, () => {
        const id = vmid++;
        return { hostname: `ct${id}`, nodeId, containerId: String(id) };
      }),
    );
  }

  // 1) Sampling rounds, each as the schedule runs it, with the clock a minute on each time.
  const services = test.manager.services;
  let now = Date.now();
  const sampler = new MetricsSampler(
    services.metricsHistory.repo,
    services.nodes,
    services.providers,
    { clock: () => now, owner: 'bench', intervalMs: INTERVAL_MS },
    test.manager.app.log,
  );
  const cpu: number[] = [];
  const wall: number[] = [];
  let stored = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    stored = await sampler.sampleOnce();
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
    now += INTERVAL_MS;
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(
    `database: ${test.manager.database.dialect}; ${NODES} nodes x ${PER_NODE} containers; node latency ${LATENCY_MS} ms`,
  );
  console.log(
    `sampling round: ${stored} samples; wall ${mean(wall).toFixed(0)} ms, manager CPU ${mean(cpu).toFixed(0)} ms ` +
      `= ${((mean(cpu) / INTERVAL_MS) * 100).toFixed(2)} % of one core every ${INTERVAL_MS / 1000} s (goal < 5 %)`,
  );

  // 2) A full 60-day history for STORAGE_CONTAINERS containers.
  const db = test.manager.database.db;
  const ids = (
    await db.selectFrom('containers').select('id').orderBy('id').limit(STORAGE_CONTAINERS).execute()
  ).map((row) => row.id);
  const end = Math.floor(Date.now() / 3600_000) * 3600_000;
  const figures = (i: number) => ({
    cpu_cores: 0.5 + (i % 7) / 10,
    cpu_pct: 25 + (i % 13),
    mem_bytes: 400_000_000 + i * 4096,
    mem_pct: 40.5 + (i % 11),
    disk_bytes: 2_000_000_000 + i,
    disk_pct: 23.4,
    net_in_bps: 1234.5 + i,
    net_out_bps: 567.8 + i,
  });
  await db.deleteFrom('metric_samples').execute();
  for (const id of ids) {
    const rows = [
      ...Array.from({ length: 2 * 24 * 60 }, (_, i) => ({
        resolution_s: MINUTE_S,
        at_ms: end - i * 60_000,
        i,
      })),
      ...Array.from({ length: 60 * 24 }, (_, i) => ({ resolution_s: HOUR_S, at_ms: end - i * 3600_000, i })),
    ].map(({ i, ...row }) => ({ subject_type: 'container' as const, subject_id: id, ...row, ...figures(i) }));
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('metric_samples')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }
  const bytes =
    test.manager.database.dialect === 'postgres'
      ? Number(
          (await sql<{ size: string }>`select pg_total_relation_size('metric_samples') as size`.execute(db))
            .rows[0]!.size,
        )
      : Number(
          (
            await sql<{
              size: number;
            }>`select sum(pgsize) as size from dbstat where name like 'metric_samples%'`.execute(db)
          ).rows[0]!.size,
        );
  console.log(
    `storage: ${(bytes / ids.length / 1024).toFixed(0)} KiB per container for 60 days ` +
      `(${2 * 24 * 60 + 60 * 24} rows of ${FIGURES.length} figures; table and indexes, ${ids.length} containers)`,
  );

  // 3) The container page's 60-day query.
  const url = `/sites/${siteId}/containers/${ids[0]}/metrics?range=60d`;
  const warm = await admin.get(url);
  if (warm.status !== 200 || warm.body.data.points.length < 1000)
    throw new Error(`bad answer: ${warm.status}`);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    if ((await admin.get(url)).status !== 200) throw new Error('query failed');
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(
    `GET ${url} (${warm.body.data.points.length} points, ${warm.text.length} bytes): p50 ${at(0.5)} ms, p90 ${at(0.9)} ms over ${RUNS} runs (goal < 50 ms)`,
  );
} finally {
  await test.close();
  child.stdin!.end();
}
