/**
 * Translator benchmarks: prints figures, asserts nothing.
 *
 *   npx tsx packages/translator/bench/translations.ts                                  # SQLite
 *   TEST_DATABASE_URL=postgres://… npx tsx packages/translator/bench/translations.ts   # + PostgreSQL
 *   (BENCH_DURATION_S, default 5, and BENCH_ROUNDS, default 3, tune part 1)
 *
 * 1. GET /api/translations (2,000 approved phrases) against a bare node:http server answering the same
 *    bytes with the same headers, plain and gzip. Each server runs in its own process; the figures are
 *    requests/s and the server's CPU time per request (less sensitive to a busy machine), as ratios.
 * 2. POST /api/textnodes with 200 keys: requests/s on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 * 3. An AI job of 2,000 phrases against the fake provider answering each call after 100 ms (goal < 10 s).
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { startBenchServer, type BenchProcess, type TestDatabase } from '@app/server-kit/testing';
import { startFakeOpenAI } from '@app/fakes/openai';
import { buildTranslator } from '../src/app.ts';
import { api, benchConfig, finishedJob, seedPhrases, withDatabase, word } from './fixtures/setup.ts';

const DURATION = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

async function load(
  url: string,
  headers: Record<string, string>,
  extra: Partial<Parameters<typeof autocannon>[0]> = {},
) {
  const result = await autocannon({
    url,
    headers,
    connections: CONNECTIONS,
    duration: DURATION,
    workers: 1,
    ...extra,
  });
  if (result.errors || (result.non2xx && !headers['if-none-match'])) {
    console.log(`   (errors ${result.errors}, non-2xx ${result.non2xx})`);
  }
  return result;
}

const FIXTURE = fileURLToPath(new URL('./fixtures/delivery-server.ts', import.meta.url));

/** Requests/s and server CPU µs per request for one run against one server process. */
async function measure(child: BenchProcess, url: string, headers: Record<string, string>) {
  const before = await child.cpuMicros();
  const result = await load(url, headers);
  const cpu = (await child.cpuMicros()) - before;
  return { rps: result.requests.average, cpuPerRequest: cpu / Math.max(1, result.requests.total) };
}

async function deliveryBench() {
  const ours = await startBenchServer(FIXTURE, 'translator');
  const { url, key } = ours as { url: string; key: string };
  const probe = await fetch(url, { headers: { 'x-api-key': key } });
  const plain = Buffer.from(await probe.arrayBuffer());
  const etag = probe.headers.get('etag')!;
  const gzip = gzipSync(plain, { level: 6 });
  const standIn = { type: 'bytes', plain: plain.toString('base64'), gzip: gzip.toString('base64'), etag };
  const bare = await startBenchServer(FIXTURE, 'bare', { standIn });
  const kit = await startBenchServer(FIXTURE, 'kit', { standIn });
  const plainFastify = await startBenchServer(FIXTURE, 'fastify', { standIn });

  console.log(
    `\n1. GET /api/translations?lang=fr — 2,000 approved phrases, ${fmt(plain.length)} bytes (${fmt(gzip.length)} gzip)`,
  );
  console.log(
    `   ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} interleaved runs; servers in their own processes`,
  );
  for (const [label, headers] of [
    ['identity', {}],
    ['gzip', { 'accept-encoding': 'gzip' }],
  ] as const) {
    const runs: Record<'ours' | 'bare' | 'kit' | 'fastify', { rps: number; cpuPerRequest: number }[]> = {
      ours: [],
      bare: [],
      kit: [],
      fastify: [],
    };
    for (let round = 0; round < ROUNDS; round++) {
      runs.ours.push(await measure(ours, url, { 'x-api-key': key, ...headers }));
      runs.bare.push(await measure(bare, bare.url, { 'x-api-key': key, ...headers }));
      runs.kit.push(await measure(kit, kit.url, { 'x-api-key': key, ...headers }));
      runs.fastify.push(await measure(plainFastify, plainFastify.url, { 'x-api-key': key, ...headers }));
    }
    const rps = (name: keyof typeof runs) => median(runs[name].map((r) => r.rps));
    const cpu = (name: keyof typeof runs) => median(runs[name].map((r) => r.cpuPerRequest));
    console.log(
      `   ${label.padEnd(8)} req/s: translator ${fmt(rps('ours'))}, bare ${fmt(rps('bare'))} → ratio ${(rps('ours') / rps('bare')).toFixed(2)}; ` +
        `server-kit alone ${fmt(rps('kit'))} (${(rps('kit') / rps('bare')).toFixed(2)}), ` +
        `plain Fastify ${fmt(rps('fastify'))} (${(rps('fastify') / rps('bare')).toFixed(2)})`,
    );
    console.log(
      `   ${''.padEnd(8)} server CPU per request: translator ${cpu('ours').toFixed(0)} µs, bare ${cpu('bare').toFixed(0)} µs → ratio ` +
        `${(cpu('bare') / cpu('ours')).toFixed(2)}; server-kit alone ${cpu('kit').toFixed(0)} µs (${(cpu('bare') / cpu('kit')).toFixed(2)}), ` +
        `plain Fastify ${cpu('fastify').toFixed(0)} µs (${(cpu('bare') / cpu('fastify')).toFixed(2)})`,
    );
  }
  const notModified = await measure(ours, url, { 'x-api-key': key, 'if-none-match': etag });
  console.log(
    `   304 (If-None-Match): translator ${fmt(notModified.rps)} req/s, ${notModified.cpuPerRequest.toFixed(0)} µs CPU per request`,
  );
  for (const child of [ours, bare, kit, plainFastify]) await child.stop();
}

async function textnodesBench(database: TestDatabase, label: string) {
  const translator = await buildTranslator(benchConfig(database), { workers: false });
  const url = await translator.listen();
  const key = translator.defaultProject.project.api_key;
  const keys = Array.from({ length: 200 }, (_, i) => ({
    key: `Menu entry ${word(i)} with 2 badges`,
    context: i % 5 ? '' : 'nav',
  }));
  const body = JSON.stringify({ keys, url: 'https://shop.example/catalogue' });
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const result = await load(`${url}/api/textnodes`, headers, { method: 'POST', body, connections: 10 });
  console.log(
    `   ${label.padEnd(10)} ${fmt(result.requests.average)} req/s (${fmt(result.requests.average * 200)} keys/s), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
  );
  await translator.close();
}

async function aiJobBench(database: TestDatabase) {
  const fake = await startFakeOpenAI({ latencyMs: 100 });
  const translator = await buildTranslator(benchConfig(database, { baseUrl: fake.baseUrl }));
  const url = await translator.listen();
  const key = translator.defaultProject.project.api_key;
  const ids = await seedPhrases(url, key, 2000, 'de');
  await api(url, key, 'PATCH', '/api/project/settings', {
    settings: { translationProviderApiKey: 'sk-bench' },
  });
  const started = Date.now();
  const { jobId } = await api(url, key, 'POST', '/api/ai-jobs', { key_ids: ids, lang: 'de' });
  const job = await finishedJob(url, key, jobId);
  const seconds = (Date.now() - started) / 1000;
  const { batchSize, parallelCalls } = translator.ctx.config.ai;
  console.log(
    `\n3. AI job of 2,000 phrases, fake provider with 100 ms per call (batch ${batchSize}, ${parallelCalls} calls in parallel)`,
  );
  console.log(
    `   ${job.status}: ${job.completed} translated, ${job.failed} failed, ${fake.requests.length} calls, ${seconds.toFixed(2)} s`,
  );
  await translator.close();
  await fake.close();
}

console.log(`Translator benchmarks — Node ${process.version}`);
{
  // The delivery server process always runs on SQLite.
  const saved = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  await deliveryBench();
  if (saved) process.env.TEST_DATABASE_URL = saved;
}
console.log('\n2. POST /api/textnodes with 200 keys (already known after the first call), 10 connections');
await withDatabase((db) => textnodesBench(db, 'SQLite'));
if (process.env.TEST_DATABASE_URL) await withDatabase((db) => textnodesBench(db, 'PostgreSQL'), true);
else console.log('   PostgreSQL: skipped (set TEST_DATABASE_URL)');
await withDatabase(aiJobBench);
