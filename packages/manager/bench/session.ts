// Requests/s of GET /api/v1/session with a Bearer API key against GET /api/v1/health in the same run.
// Goal: ratio >= 0.7 (authentication costs one indexed lookup, no slow hash).
// The audit log's cost: /session and an audited write (PUT /settings, its entry in the change's
// transaction) against a manager built without the audit log, in the same run. Goal: < 5 % slower.
import autocannon from 'autocannon';
import { adminClient, startManager } from '../test/helpers.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, headers, connections: 10, duration: DURATION_S });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** A manager (with or without the audit log) and a Bearer key of its administrator. */
async function managerWithKey(audit: boolean) {
  const test = await startManager({}, { audit });
  const admin = await adminClient(test);
  const key = (await admin.post('/apikeys', { description: 'bench' })).body.data.key as string;
  return { test, base: `${test.baseUrl}/api/v1`, headers: { authorization: `Bearer ${key}` } };
}

/** Requests/s of PUT /settings (an audited write) with a Bearer key. */
async function measureWrite(base: string, headers: Record<string, string>) {
  const result = await autocannon({
    url: `${base}/settings`,
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ bannerMessage: '' }),
    connections: 10,
    duration: DURATION_S,
  });
  if (result.non2xx || result.errors)
    throw new Error(`PUT /settings: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const slower = (withAudit: number, without: number) => `${((1 - withAudit / without) * 100).toFixed(1)} %`;

const audited = await managerWithKey(true);
const plain = await managerWithKey(false);
try {
  const { test, base, headers } = audited;
  await measure(`${base}/health`); // warm-up
  const health = await measure(`${base}/health`);
  const session = await measure(`${base}/session`, headers);
  console.log(`database: ${test.manager.database.dialect}`);
  console.log(`GET /health             ${health.toFixed(0)} req/s`);
  console.log(`GET /session (Bearer)   ${session.toFixed(0)} req/s`);
  console.log(`ratio session/health    ${(session / health).toFixed(2)} (goal >= 0.70)`);

  // The best of ROUNDS each, taking turns at going first: other load on the machine falls on both alike.
  const best = async (run: () => Promise<number>, other: () => Promise<number>) => {
    let [a, b] = [0, 0];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2) b = Math.max(b, await other());
      a = Math.max(a, await run());
      if (!(round % 2)) b = Math.max(b, await other());
    }
    return [a, b] as const;
  };
  const [sessionAudited, sessionPlain] = await best(
    () => measure(`${base}/session`, headers),
    () => measure(`${plain.base}/session`, plain.headers),
  );
  const [write, writePlain] = await best(
    () => measureWrite(base, headers),
    () => measureWrite(plain.base, plain.headers),
  );
  console.log(
    `audit log: GET /session ${sessionAudited.toFixed(0)} vs ${sessionPlain.toFixed(0)} req/s without, ${slower(sessionAudited, sessionPlain)} slower (goal < 5 %)`,
  );
  console.log(
    `audit log: PUT /settings ${write.toFixed(0)} vs ${writePlain.toFixed(0)} req/s without, ${slower(write, writePlain)} slower (goal < 5 %)`,
  );
} finally {
  await plain.test.close();
  await audited.test.close();
}
