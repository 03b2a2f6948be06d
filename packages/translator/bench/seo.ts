/**
 * SEO mode benchmark: prints figures, asserts nothing.   npx tsx packages/translator/bench/seo.ts
 *
 * A page of 2,000 text nodes (all translated into French) on an origin server on loopback, served in
 * French by the translator (SQLite):
 * 1. Latency added over the origin (sequential GETs, p50 and p99 of 200): a cold miss (the origin page
 *    fetched and rendered), a re-render (translations changed, the origin page reused) and a cache hit
 *    (goals: hit < 5 ms p50, miss < 60 ms p50).
 * 2. Throughput of the cached French page (autocannon, 50 connections, BENCH_DURATION_S, default 5)
 *    against nginx serving the same bytes from a file.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '@app/server-kit/testing';
import { buildTranslator } from '../src/app.ts';
import { get, serveOrigin } from '../test/seo-site.ts';
import { api, benchConfig, seedTranslations, withDatabase, word } from './fixtures/setup.ts';

const NODES = 2000;
const SAMPLES = 200;
const DURATION = Number(process.env.BENCH_DURATION_S ?? 5);

const PAGE =
  '<!doctype html><html lang="en"><head><title>Product</title></head><body><main>' +
  Array.from(
    { length: NODES },
    (_, i) => `<p>Sentence ${word(i)} shown on the product page with 3 options</p>`,
  ).join('') +
  '</main></body></html>';

/** The site's host: the translator serves its pages only for it (as the site's nginx asks for them). */
const SITE_HOST = 'shop.example';

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
const ms = (n: number) => n.toFixed(2);

async function timed(url: string, before?: () => unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    await before?.();
    const start = performance.now();
    const answer = await get(url.replace('{i}', String(i)), { host: SITE_HOST });
    times.push(performance.now() - start);
    if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
  }
  return times;
}

/** nginx serving one file from a folder of its own on loopback. */
async function nginxServing(html: string): Promise<{ url: string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'seo-bench-'));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'www', 'fr'), { recursive: true });
  mkdirSync(join(dir, 'tmp'));
  writeFileSync(join(dir, 'www', 'fr', 'index.html'), html);
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `pid ${dir}/nginx.pid; error_log ${dir}/error.log; worker_processes 1; events {}
http { access_log off; client_body_temp_path ${dir}/tmp/b; proxy_temp_path ${dir}/tmp/p;
  fastcgi_temp_path ${dir}/tmp/f; uwsgi_temp_path ${dir}/tmp/u; scgi_temp_path ${dir}/tmp/s;
  server { listen 127.0.0.1:${port}; root ${dir}/www; default_type text/html; } }
`,
  );
  const started = spawnSync('nginx', ['-c', conf, '-p', dir], { encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`nginx: ${started.stderr}`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    url: `http://127.0.0.1:${port}/fr/`,
    stop() {
      spawnSync('nginx', ['-c', conf, '-p', dir, '-s', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function throughput(url: string) {
  const result = await autocannon({
    url,
    connections: 50,
    duration: DURATION,
    workers: 1,
    headers: { host: SITE_HOST },
  });
  return { rps: result.requests.average, p50: result.latency.p50, errors: result.errors + result.non2xx };
}

await withDatabase(async (database) => {
  const origin = await serveOrigin({ '/product': { body: PAGE }, '*': { status: 404, body: '' } });
  const translator = await buildTranslator(benchConfig(database), { workers: false });
  const url = await translator.listen();
  const { id, api_key: key } = translator.defaultProject.project;
  await seedTranslations(url, key, NODES, 'fr');
  await api(url, key, 'PATCH', '/api/project/settings', {
    settings: { seoOrigin: origin.url, seoPublicUrl: `http://${SITE_HOST}` },
  });
  const page = `${url}/seo/${id}/fr/product`;
  const sample = await get(page, { host: SITE_HOST });
  if (!sample.body.includes('traduite')) throw new Error('the French page is not translated');
  console.log(`page: ${NODES} text nodes, ${Math.round(PAGE.length / 1024)} KiB at the origin`);

  const originTimes = await timed(`${origin.url}/product?v={i}`);
  const cold = await timed(`${page}?v={i}`);
  const rerender = await timed(page, () => translator.services.changes.announce('data', id));
  await get(page, { host: SITE_HOST });
  const hit = await timed(page);
  const base = quantile(originTimes, 0.5);
  console.log('\n1. latency, ms (sequential, %d requests each)', SAMPLES);
  console.log('| request | p50 | p99 | added over the origin (p50) |');
  console.log('|---|---|---|---|');
  console.log(`| origin alone | ${ms(base)} | ${ms(quantile(originTimes, 0.99))} | – |`);
  for (const [name, times] of [
    ['cold miss (fetch + render)', cold],
    ['re-render (translations changed)', rerender],
    ['cache hit', hit],
  ] as const)
    console.log(
      `| ${name} | ${ms(quantile(times, 0.5))} | ${ms(quantile(times, 0.99))} | ${ms(quantile(times, 0.5) - base)} |`,
    );

  const file = await nginxServing(sample.body);
  const ours = await throughput(page);
  const theirs = await throughput(file.url);
  console.log(`\n2. throughput of the French page (${DURATION} s, 50 connections, uncompressed)`);
  console.log('| server | requests/s | p50 ms | errors |');
  console.log('|---|---|---|---|');
  console.log(`| translator, cached page | ${Math.round(ours.rps)} | ${ours.p50} | ${ours.errors} |`);
  console.log(`| nginx, the same file | ${Math.round(theirs.rps)} | ${theirs.p50} | ${theirs.errors} |`);
  console.log(`ratio: ${(ours.rps / theirs.rps).toFixed(2)}`);
  file.stop();
  await translator.close();
  await origin.close();
});
