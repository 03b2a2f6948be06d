/**
 * Hot-path overhead: `GET /api/v1/health` and `GET /api/v1/session` with a Bearer API key on the real
 * manager (NODE_ENV=production, request logging on) against a bare node:http server and plain Fastify
 * answering the same bytes, each server in its own process, rounds interleaved, medians kept.
 * Goals: /health ≥ 0.8 of bare node:http, /session ≥ 0.7.
 *
 *   npm run bench hot-path     (BENCH_DURATION_S, default 5; BENCH_ROUNDS, default 3)
 */
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startBenchServer, type BenchProcess } from '@app/server-kit/testing';

const DURATION = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
type Role = 'manager' | 'bare' | 'fastify';

const FIXTURE = fileURLToPath(new URL('./fixtures/hot-path-server.ts', import.meta.url));

// The manager's log lines go to /dev/null: written, not kept.
const start = (role: Role, bodies?: Record<string, string>) =>
  startBenchServer(FIXTURE, role, { output: 'ignore', standIn: bodies && { type: 'bodies', bodies } });

/** Requests/s and the server's CPU µs per request for one run. */
async function run(server: BenchProcess, path: string, headers: Record<string, string> = {}) {
  const before = await server.cpuMicros();
  const result = await autocannon({
    url: server.url + path,
    headers,
    connections: CONNECTIONS,
    duration: DURATION,
    workers: 1,
  });
  if (result.non2xx || result.errors)
    console.log(`   (${path}: non-2xx ${result.non2xx}, errors ${result.errors})`);
  const cpu = (await server.cpuMicros()) - before;
  return { rps: result.requests.average, cpu: cpu / Math.max(1, result.requests.total) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const manager = await start('manager');
const bearer = { authorization: `Bearer ${manager.key}` };
const paths = { health: '/api/v1/health', session: '/api/v1/session' };
const bodies = {
  [paths.health]: await (await fetch(manager.url + paths.health)).text(),
  [paths.session]: await (await fetch(manager.url + paths.session, { headers: bearer })).text(),
};
const bare = await start('bare', bodies);
const fastify = await start('fastify', bodies);
try {
  console.log(`${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} interleaved rounds`);
  for (const [name, path, headers] of [
    ['GET /health', paths.health, {}],
    ['GET /session (Bearer)', paths.session, bearer],
  ] as const) {
    await run(manager, path, headers); // warm-up
    const runs: Record<Role, { rps: number; cpu: number }[]> = { manager: [], bare: [], fastify: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.manager.push(await run(manager, path, headers));
      runs.bare.push(await run(bare, path, headers));
      runs.fastify.push(await run(fastify, path, headers));
    }
    const rps = (role: keyof typeof runs) => median(runs[role].map((r) => r.rps));
    const cpu = (role: keyof typeof runs) => median(runs[role].map((r) => r.cpu));
    console.log(
      `${name.padEnd(22)} req/s: manager ${fmt(rps('manager'))}, bare ${fmt(rps('bare'))} → ratio ` +
        `${(rps('manager') / rps('bare')).toFixed(2)}; plain Fastify ${fmt(rps('fastify'))} (${(rps('fastify') / rps('bare')).toFixed(2)})`,
    );
    console.log(
      `${''.padEnd(22)} server CPU per request: manager ${cpu('manager').toFixed(0)} µs, bare ${cpu('bare').toFixed(0)} µs → ratio ` +
        `${(cpu('bare') / cpu('manager')).toFixed(2)}; plain Fastify ${cpu('fastify').toFixed(0)} µs`,
    );
  }
} finally {
  for (const server of [manager, bare, fastify]) await server.stop();
}
