/**
 * Translator benchmarks: prints figures, asserts nothing.
 *
 *   npx tsx packages/translator/bench/translations.ts            # SQLite
 *   TEST_DATABASE_URL=postgres://… npx tsx packages/translator/bench/translations.ts   # + PostgreSQL
 *
 * 1. GET /api/translations (2,000 approved phrases) against a bare node:http server answering the same
 *    bytes with the same headers: the ratio of requests/s (goal ≥ 0.7), plain and gzip.
 * 2. POST /api/textnodes with 200 keys: requests/s on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 * 3. An AI job of 2,000 phrases against the fake provider answering each call after 100 ms (goal < 10 s).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { createTestDatabase, type TestDatabase } from '@app/server-kit/testing';
import { startFakeOpenAI } from '../../fakes/src/openai/index.ts';
import { buildTranslator, type Translator } from '../src/app.ts';
import { TRANSLATOR_VERSION, type TranslatorConfig } from '../src/config.ts';

const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

function config(database: TestDatabase, ai: Partial<TranslatorConfig['ai']> = {}): TranslatorConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    production: true,
    dataDir: database.dataDir,
    trustProxy: [],
    rateLimit: { failures: 1_000_000, windowSeconds: 60, blockSeconds: 1 },
    logLevel: 'silent',
    databaseUrl: database.url,
    databaseSchema: database.schema,
    secretKey: 'bench',
    version: TRANSLATOR_VERSION,
    bodyLimit: 5 * 1024 * 1024,
    cacheTtlSeconds: 5,
    staticDir: undefined,
    ai: {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'bench-model',
      batchSize: 25,
      parallelCalls: 4,
      jobsPerProject: 1,
      maxAttempts: 5,
      backoffMs: 100,
      requestTimeoutMs: 30_000,
      leaseMs: 30_000,
      ...ai,
    },
    backup: { dir: `${database.dataDir}/backups`, intervalHours: 0, keep: 7 },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loosely typed answers of our own API
async function api(url: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(url + path, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A distinct lower-case word per number (bijective base 26), so keys differ in letters, not in digits. */
const word = (i: number): string =>
  (i < 26 ? '' : word(Math.floor(i / 26) - 1)) + String.fromCharCode(97 + (i % 26));

/** Registers `count` phrases, approves them, and translates them into `lang` (through the API). */
async function seed(url: string, key: string, count: number, lang: string) {
  await api(url, key, 'PATCH', '/api/project/settings', { settings: { languages: [lang] } });
  for (let start = 0; start < count; start += 1000) {
    const keys = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
      key: `Sentence ${word(start + i)} shown on the product page with 3 options`,
    }));
    await api(url, key, 'POST', '/api/textnodes', { keys, url: 'https://shop.example/' });
  }
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const list = await api(url, key, 'GET', `/api/translations/all?limit=500&page=${page}`);
    ids.push(...list.rows.map((row: { id: number }) => row.id));
    if (list.rows.length < 500) break;
  }
  await api(url, key, 'PATCH', '/api/textnodes/status', { ids, status: 'approved' });
  return ids;
}

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
  if (result.errors || (result.non2xx && !headers['if-none-match']))
    console.log(`   (errors ${result.errors}, non-2xx ${result.non2xx})`);
  return result;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function deliveryBench(database: TestDatabase) {
  const translator = await buildTranslator(config(database), { workers: false });
  const url = await translator.listen();
  const key = translator.defaultProject.project.api_key;
  const ids = await seed(url, key, 2000, 'fr');
  for (let start = 0; start < ids.length; start += 1000) {
    await api(url, key, 'POST', '/api/translations', {
      lang: 'fr',
      translations: ids
        .slice(start, start + 1000)
        .map((id) => ({ id, value: `Phrase ${id} traduite avec {{number:0}} options` })),
    });
  }
  const probe = await fetch(`${url}/api/translations?lang=fr`, { headers: { 'x-api-key': key } });
  const bytes = Buffer.from(await probe.arrayBuffer());
  const etag = probe.headers.get('etag')!;
  const gz = gzipSync(bytes, { level: 6 });
  const bare = createServer((req, res) => {
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      etag,
      'cache-control': 'no-cache',
      vary: 'accept-encoding, x-api-key',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      'content-length': gzip ? gz.length : bytes.length,
    });
    res.end(gzip ? gz : bytes);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/api/translations?lang=fr`;

  console.log(
    `\n1. GET /api/translations?lang=fr — 2,000 approved phrases, ${fmt(bytes.length)} bytes (${fmt(gz.length)} gzip)`,
  );
  console.log(
    `   ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} interleaved runs, load generator in a worker thread`,
  );
  for (const [label, headers] of [
    ['identity', {}],
    ['gzip', { 'accept-encoding': 'gzip' }],
  ] as const) {
    // Interleaved rounds, median of each: the machine is shared, so single runs drift.
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      ours.push(
        (await load(`${url}/api/translations?lang=fr`, { 'x-api-key': key, ...headers })).requests.average,
      );
      theirs.push((await load(bareUrl, { 'x-api-key': key, ...headers })).requests.average);
    }
    const a = median(ours);
    const b = median(theirs);
    console.log(
      `   ${label.padEnd(8)} translator ${fmt(a)} req/s | bare node:http ${fmt(b)} req/s | ratio ${(a / b).toFixed(2)}` +
        `   (rounds: ${ours.map(fmt).join(', ')} vs ${theirs.map(fmt).join(', ')})`,
    );
  }
  const cached = await load(`${url}/api/translations?lang=fr`, { 'x-api-key': key, 'if-none-match': etag });
  console.log(`   304 (If-None-Match) translator ${fmt(cached.requests.average)} req/s`);
  await new Promise<void>((resolve) => bare.close(() => resolve()));
  await translator.close();
}

async function textnodesBench(database: TestDatabase, label: string) {
  const translator = await buildTranslator(config(database), { workers: false });
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
  const translator: Translator = await buildTranslator(config(database, { baseUrl: fake.baseUrl }));
  const url = await translator.listen();
  const key = translator.defaultProject.project.api_key;
  const ids = await seed(url, key, 2000, 'de');
  await api(url, key, 'PATCH', '/api/project/settings', {
    settings: { translationProviderApiKey: 'sk-bench' },
  });
  const started = Date.now();
  const { jobId } = await api(url, key, 'POST', '/api/ai-jobs', { key_ids: ids, lang: 'de' });
  let job;
  for (;;) {
    job = await api(url, key, 'GET', `/api/ai-jobs/${jobId}`);
    if (!['pending', 'running'].includes(job.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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

async function withDatabase(run: (database: TestDatabase) => Promise<void>, postgres = false) {
  const saved = process.env.TEST_DATABASE_URL;
  if (!postgres) delete process.env.TEST_DATABASE_URL;
  const database = await createTestDatabase();
  if (saved) process.env.TEST_DATABASE_URL = saved;
  try {
    await run(database);
  } finally {
    await database.drop();
  }
}

console.log(`Translator benchmarks — Node ${process.version}`);
await withDatabase(deliveryBench);
console.log('\n2. POST /api/textnodes with 200 keys (already known after the first call), 10 connections');
await withDatabase((db) => textnodesBench(db, 'SQLite'));
if (process.env.TEST_DATABASE_URL) await withDatabase((db) => textnodesBench(db, 'PostgreSQL'), true);
else console.log('   PostgreSQL: skipped (set TEST_DATABASE_URL)');
await withDatabase(aiJobBench);
