// Requests/s of GET /api/v1/session with a Bearer API key against GET /api/v1/health in the same run.
// Goal: ratio >= 0.7 (authentication costs one indexed lookup, no slow hash).
import autocannon from 'autocannon';
import { adminClient, startManager } from '../test/helpers.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, headers, connections: 10, duration: DURATION_S });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const test = await startManager();
try {
  const admin = await adminClient(test);
  const key = (await admin.post('/apikeys', { description: 'bench' })).body.data.key as string;
  const base = `${test.baseUrl}/api/v1`;
  await measure(`${base}/health`); // warm-up
  const health = await measure(`${base}/health`);
  const session = await measure(`${base}/session`, { authorization: `Bearer ${key}` });
  console.log(`database: ${test.manager.database.dialect}`);
  console.log(`GET /health             ${health.toFixed(0)} req/s`);
  console.log(`GET /session (Bearer)   ${session.toFixed(0)} req/s`);
  console.log(`ratio session/health    ${(session / health).toFixed(2)} (goal >= 0.70)`);
} finally {
  await test.close();
}
