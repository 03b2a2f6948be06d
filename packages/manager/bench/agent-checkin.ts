// Agent check-in on the 304 path against GET /health in the same run (goal: ratio >= 0.8), and the
// time to build the snapshot of one site with 5,000 containers and 10,000 services (goal < 100 ms).
import autocannon from 'autocannon';
import { adminClient } from '../test/helpers.ts';
import { siteInput, startFleetManager } from '../test/fleet-helpers.ts';
import { buildSnapshot } from '../src/site-config/snapshot-builder.ts';
import { SnapshotRepository } from '../src/site-config/snapshot-repository.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONTAINERS = 5000;

const test = await startFleetManager();
try {
  const admin = await adminClient(test);
  const siteId = (
    await admin.post('/sites', siteInput({ dhcpRange: '10.1.0.1,10.1.255.250', subnetMask: '255.255.0.0' }))
  ).body.data.id as number;
  const nodeId = (await admin.post(`/sites/${siteId}/nodes`, { name: 'bench-node', nodeType: 'dummy' })).body
    .data.id as number;
  const domainId = (await admin.post('/external-domains', { name: 'bench.example.test', siteId })).body.data
    .id as number;
  const db = test.manager.database.db;
  const now = new Date().toISOString();
  for (let start = 0; start < CONTAINERS; start += 500) {
    await db.transaction().execute(async (trx) => {
      for (let i = start; i < start + 500; i++) {
        const { id } = await trx
          .insertInto('containers')
          .values({
            hostname: `c${i}`,
            owner_uid_number: 2000,
            node_id: nodeId,
            container_id: String(100 + i),
            status: 'running',
            template: 'debian:12',
            ipv4_address: `10.1.${i >> 8}.${(i & 255) + 1}`,
            mac_address: `02:00:00:00:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
            creation_job_id: null,
            entrypoint: null,
            environment_vars: '{}',
            nvidia_requested: 0,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const http = await trx
          .insertInto('services')
          .values({
            container_id: id,
            type: 'http',
            internal_port: 80,
            last_accessed_at: null,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('http_services')
          .values({
            service_id: http.id,
            external_hostname: `c${i}`,
            external_domain_id: domainId,
            backend_protocol: 'http',
            auth_required: 0,
          })
          .execute();
        const tcp = await trx
          .insertInto('services')
          .values({
            container_id: id,
            type: 'transport',
            internal_port: 22,
            last_accessed_at: null,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('transport_services')
          .values({ service_id: tcp.id, protocol: 'tcp', external_port: 20000 + i, use_tls: 0 })
          .execute();
      }
    });
  }
  const snapshotRows = new SnapshotRepository(db);
  const times: number[] = [];
  for (let run = 0; run < 7; run++) {
    const start = performance.now();
    await buildSnapshot(snapshotRows, siteId);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`database: ${test.manager.database.dialect}`);
  console.log(
    `snapshot of ${CONTAINERS} containers / ${CONTAINERS * 2} services: median ${times[3]!.toFixed(1)} ms, best ${times[0]!.toFixed(1)} ms (goal < 100 ms)`,
  );

  const base = `${test.baseUrl}/api/v1`;
  await new Promise((resolve) => setTimeout(resolve, 1100)); // let the snapshot cache settle after the inserts
  const body = JSON.stringify({
    siteId,
    hostname: 'gw1',
    services: { nginx: { state: 'active', lastApply: 'success' } },
  });
  const first = await fetch(`${base}/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const etag = first.headers.get('etag')!;
  console.log(`snapshot response: ${(await first.text()).length} bytes`);
  const measure = async (options: Parameters<typeof autocannon>[0]) => {
    const result = await autocannon({ connections: 10, duration: DURATION_S, ...options });
    return result.requests.average;
  };
  // The same check-in as a remote agent makes it: with its site's agent token.
  const token = (await admin.post(`/sites/${siteId}/agent-tokens`, {})).body.data.token as string;
  const health = { url: `${base}/health` };
  const checkin = {
    url: `${base}/agents`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'if-none-match': etag },
    body,
  };
  // Both routes warm up (JIT) first; the rounds alternate so a load change on the machine hits both.
  const withToken = { ...checkin, headers: { ...checkin.headers, authorization: `Bearer ${token}` } };
  await measure({ ...health, duration: 1 });
  await measure({ ...checkin, duration: 1 });
  await measure({ ...withToken, duration: 1 });
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const healthRate = await measure(health);
    const checkinRate = await measure(checkin);
    const tokenRate = await measure(withToken);
    ratios.push(checkinRate / healthRate);
    console.log(
      `round ${round}: GET /health ${healthRate.toFixed(0)} req/s, POST /agents (304 path) ${checkinRate.toFixed(0)} req/s, ratio ${(checkinRate / healthRate).toFixed(2)}; with an agent token ${tokenRate.toFixed(0)} req/s, ratio ${(tokenRate / healthRate).toFixed(2)}`,
    );
  }
  ratios.sort((a, b) => a - b);
  console.log(
    `ratio check-in/health, median of ${ROUNDS} rounds: ${ratios[Math.floor(ROUNDS / 2)]!.toFixed(2)} (goal >= 0.80)`,
  );
} finally {
  await test.close();
}
