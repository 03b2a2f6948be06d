/**
 * The four paths every client and agent hits, in one run (issue 35), each server in its own process:
 *   1. the manager's `GET /api/v1/health` ÷ a bare node:http server answering the same bytes, headers
 *      included (goal ≥ 0.85; plain Fastify answering them is printed beside it);
 *   2. `GET /api/v1/session` with a Bearer API key ÷ the manager's `/health` (goal ≥ 0.8);
 *   3. an agent check-in answered 304 (its site's agent token, `If-None-Match`) ÷ `/health` (goal ≥ 0.9);
 *   4. the translator's cached `GET /api/translations` (2,000 approved phrases, gzip, as a browser asks)
 *      ÷ a bare node:http server answering the same bytes and headers (goal ≥ 0.9).
 * The manager runs with NODE_ENV=production and request logging on; rounds are interleaved and medians
 * kept; beside requests/s the server's CPU time per request, and the machine's load average.
 *
 *   npm run bench hot-paths     (BENCH_DURATION_S, default 5; BENCH_ROUNDS, default 3)
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { startBenchServer, type BenchProcess } from '@app/server-kit/testing';
import { siteInput } from '../test/fleet-helpers.ts';

const DURATION = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

const fixture = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const MANAGER = fixture('./fixtures/hot-paths-server.ts');
const TRANSLATOR = fixture('../../translator/bench/fixtures/delivery-server.ts');

interface Load {
  server: BenchProcess;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The status every answer must have. */
  status: number;
}

/** Requests/s and the server's CPU µs per request for one run. */
async function run(load: Load) {
  const before = await load.server.cpuMicros();
  const result = await autocannon({
    url: load.url,
    method: load.method ?? 'GET',
    headers: load.headers ?? {},
    ...(load.body ? { body: load.body } : {}),
    connections: CONNECTIONS,
    duration: DURATION,
    workers: 1,
  });
  const wrong = result.requests.total - (result.statusCodeStats[load.status]?.count ?? 0);
  if (wrong || result.errors)
    console.log(`   (${load.url}: ${wrong} not ${load.status}, ${result.errors} errors)`);
  const cpu = (await load.server.cpuMicros()) - before;
  return { rps: result.requests.average, cpu: cpu / Math.max(1, result.requests.total) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

const manager = await startBenchServer(MANAGER, 'manager', { output: 'ignore' });
const api = `${manager.url}/api/v1`;
const bearer = { authorization: `Bearer ${manager.key}` };
const post = async (path: string, body: unknown, headers: Record<string, string> = bearer) => {
  const response = await fetch(api + path, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response;
};
const siteId = ((await (await post('/sites', siteInput())).json()) as { data: { id: number } }).data.id;
const agentToken = (
  (await (await post(`/sites/${siteId}/agent-tokens`, {})).json()) as { data: { token: string } }
).data.token;
const checkIn = JSON.stringify({
  siteId,
  hostname: 'gw1',
  services: { nginx: { state: 'active', lastApply: 'success' } },
});
const agentHeaders = { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' };
const etag = (await post('/agents', JSON.parse(checkIn), agentHeaders)).headers.get('etag')!;

// The twins answer the manager's very bytes: its body and every header it sends (the security headers
// and a request id of the same length included), but for those node:http writes itself.
const health = await fetch(`${api}/health`);
const answers = {
  '/api/v1/health': {
    body: await health.text(),
    headers: Object.fromEntries(
      [...health.headers].filter(
        ([name]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(name),
      ),
    ),
  },
};
const bare = await startBenchServer(MANAGER, 'bare', { standIn: { type: 'answers', answers } });
const fastify = await startBenchServer(MANAGER, 'fastify', { standIn: { type: 'answers', answers } });

const translator = await startBenchServer(TRANSLATOR, 'translator');
const gzip = { 'x-api-key': translator.key!, 'accept-encoding': 'gzip, deflate, br' };
const delivered = await fetch(translator.url, { headers: { 'x-api-key': translator.key! } });
const plain = Buffer.from(await delivered.arrayBuffer());
const translatorBare = await startBenchServer(TRANSLATOR, 'bare', {
  standIn: {
    type: 'bytes',
    plain: plain.toString('base64'),
    gzip: gzipSync(plain, { level: 6 }).toString('base64'),
    etag: delivered.headers.get('etag')!,
  },
});

const loads = {
  health: { server: manager, url: `${api}/health`, status: 200 },
  bare: { server: bare, url: `${bare.url}/api/v1/health`, status: 200 },
  fastify: { server: fastify, url: `${fastify.url}/api/v1/health`, status: 200 },
  session: { server: manager, url: `${api}/session`, headers: bearer, status: 200 },
  checkIn: {
    server: manager,
    url: `${api}/agents`,
    method: 'POST',
    headers: { ...agentHeaders, 'if-none-match': etag },
    body: checkIn,
    status: 304,
  },
  translations: { server: translator, url: translator.url, headers: gzip, status: 200 },
  translationsBare: { server: translatorBare, url: translatorBare.url, headers: gzip, status: 200 },
} satisfies Record<string, Load>;
type Name = keyof typeof loads;

try {
  console.log(
    `${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} interleaved rounds; load average ${load()}`,
  );
  for (const each of Object.values(loads)) await run({ ...each }); // warm-up (JIT, caches)
  const runs = Object.fromEntries(
    Object.keys(loads).map((name) => [name, [] as Awaited<ReturnType<typeof run>>[]]),
  );
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, each] of Object.entries(loads)) runs[name]!.push(await run(each));
  const rps = (name: Name) => median(runs[name]!.map((r) => r.rps));
  const cpu = (name: Name) => median(runs[name]!.map((r) => r.cpu));
  const ratio = (label: string, ours: Name, base: Name, goal: number, extra = '') => {
    const value = rps(ours) / rps(base);
    console.log(
      `${label.padEnd(44)} ${value.toFixed(2)} (goal ≥ ${goal.toFixed(2)}${value >= goal ? ', met' : ''}): ` +
        `${fmt(rps(ours))} vs ${fmt(rps(base))} req/s; CPU per request ${cpu(ours).toFixed(0)} vs ${cpu(base).toFixed(0)} µs${extra}`,
    );
  };
  ratio(
    '1. GET /health ÷ bare node:http',
    'health',
    'bare',
    0.85,
    `; plain Fastify ${(rps('fastify') / rps('bare')).toFixed(2)}`,
  );
  ratio('2. GET /session (Bearer key) ÷ /health', 'session', 'health', 0.8);
  ratio('3. agent check-in, 304 ÷ /health', 'checkIn', 'health', 0.9);
  ratio('4. GET /api/translations (gzip) ÷ bare', 'translations', 'translationsBare', 0.9);
  console.log(`load average at the end ${load()}`);
} finally {
  for (const server of [manager, bare, fastify, translator, translatorBare]) await server.stop();
}
