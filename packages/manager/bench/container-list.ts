// GET /sites/{id}/containers with 2,000 containers over 20 Proxmox VE nodes whose fake answers after
// 50 ms. Goal: p50 < 150 ms (one batch status call per node, in parallel; never one per container).
// The node fakes run in a child process (fixtures/pve-fleet.ts). NODE_STATUS_CACHE_MS=0 by default,
// so every request really asks all 20 nodes; set it to measure the cached case. BENCH_AUDIT=off builds
// the manager without the audit log: the two runs side by side are the audit log's cost here (the list
// is a read, which carries no audit hook; goal < 5 %).
import { adminClient, startManager } from '../test/helpers.ts';
import { siteInput } from '../test/fleet-helpers.ts';
import { addPveNodes, startPveFleet } from './fixtures/pve-fleet-process.ts';

const NODES = Number(process.env.NODES ?? 20);
const PER_NODE = Number(process.env.PER_NODE ?? 100);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 50);
const RUNS = Number(process.env.RUNS ?? 40);

const { apiUrls, child } = await startPveFleet({
  nodes: NODES,
  perNode: PER_NODE,
  latencyMs: LATENCY_MS,
});

const audit = process.env.BENCH_AUDIT !== 'off';
const test = await startManager({ NODE_STATUS_CACHE_MS: process.env.NODE_STATUS_CACHE_MS ?? '0' }, { audit });
try {
  const admin = await adminClient(test);
  const site = await admin.post(
    '/sites',
    siteInput({ dhcpRange: '10.1.0.1,10.1.255.254', gateway: '10.1.0.0' }),
  );
  const siteId = site.body.data.id as number;
  const db = test.manager.database.db;
  const now = new Date().toISOString();
  let vmid = 100;
  for (const node of await addPveNodes(admin, siteId, apiUrls)) {
    const rows = Array.from({ length: PER_NODE }, () => {
      const id = vmid++;
      return {
        hostname: `ct${id}`,
        owner_uid_number: 2000,
        node_id: node.id,
        container_id: String(id),
        status: 'running' as const,
        template: 'debian:12',
        ipv4_address: `10.1.${Math.floor(id / 250)}.${(id % 250) + 1}`,
        mac_address: `02:00:00:00:${(id >> 8).toString(16).padStart(2, '0')}:${(id & 255).toString(16).padStart(2, '0')}`,
        creation_job_id: null,
        entrypoint: null,
        environment_vars: '{"TZ":"UTC"}',
        nvidia_requested: 0,
        created_at: now,
        updated_at: now,
      };
    });
    const inserted = await db.insertInto('containers').values(rows).returning('id').execute();
    const services = await db
      .insertInto('services')
      .values(
        inserted.map(({ id }) => ({
          container_id: id,
          type: 'transport' as const,
          internal_port: 22,
          last_accessed_at: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
    await db
      .insertInto('transport_services')
      .values(
        services.map(({ id }) => ({
          service_id: id,
          protocol: 'tcp' as const,
          external_port: 20000 + id,
          use_tls: 0,
        })),
      )
      .execute();
  }

  const url = `/sites/${siteId}/containers`;
  const warm = await admin.get(url);
  if (warm.status !== 200 || warm.body.data.length !== NODES * PER_NODE)
    throw new Error(`bad answer: ${warm.status}`);
  const statuses = new Map<string, number>();
  for (const c of warm.body.data as Array<{ status: string }>)
    statuses.set(c.status, (statuses.get(c.status) ?? 0) + 1);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const response = await admin.get(url);
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`status ${response.status}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(
    `database: ${test.manager.database.dialect}; ${NODES} nodes x ${PER_NODE} containers; node latency ${LATENCY_MS} ms; status cache ${test.config.fleet.nodeStatusCacheMs} ms; audit log ${audit ? 'on' : 'off'}`,
  );
  console.log(`statuses: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}`);
  console.log(
    `GET ${url} (${warm.text.length} bytes): p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms over ${RUNS} runs (goal p50 < 150 ms)`,
  );
} finally {
  await test.close();
  child.stdin!.end();
}
