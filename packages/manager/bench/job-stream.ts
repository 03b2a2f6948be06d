/**
 * Job stream benchmark: CLIENTS SSE clients (in THREADS client processes) follow one job while it writes LINES output rows.
 * Prints whether every client got every line in order, and the row-write → client delay (p50, p99).
 *
 *   npx tsx packages/manager/bench/job-stream.ts            # SQLite in a temp dir
 *   MANAGER_DATABASE_URL=postgres://… npx tsx packages/manager/bench/job-stream.ts
 *   CLIENTS=500 LINES=10000 THREADS=2 npx tsx packages/manager/bench/job-stream.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const now = () => performance.timeOrigin + performance.now();

interface ClientJob {
  url: string;
  headers: Record<string, string>;
  clients: number;
  lines: number;
}

interface ClientResult {
  ok: number;
  broken: number;
  samples: number[];
}

/** A thread of SSE clients: counts lines, checks their order, samples the delay of every 10th. */
async function runClients({ url, headers, clients, lines }: ClientJob): Promise<ClientResult> {
  const samples: number[] = [];
  let ok = 0;
  let broken = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const response = await fetch(url, { headers });
      if (!response.ok) {
        console.error(`stream refused: ${response.status} ${await response.text()}`);
        broken += 1;
        return;
      }
      const decoder = new TextDecoder();
      let buffer = '';
      let expected = 1;
      let inOrder = true;
      let ended = false;
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let index: number;
        while ((index = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          if (block.includes('event: status')) ended = true;
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (!data || !block.includes('event: log')) continue;
          const output = (JSON.parse(data.slice(6)) as { output: string }).output;
          const [line, writtenAt] = output.split(' ').map(Number) as [number, number];
          if (line !== expected) inOrder = false;
          expected = line + 1;
          if (line % 10 === 0) samples.push(now() - writtenAt);
        }
      }
      if (inOrder && ended && expected === lines + 1) ok += 1;
      else broken += 1;
    }),
  );
  return { ok, broken, samples };
}

async function main() {
  const { envReader } = await import('@app/server-kit');
  const { TestClient } = await import('@app/server-kit/testing');
  const { readManagerConfig } = await import('../src/config.ts');
  const { buildManager } = await import('../src/app.ts');

  const CLIENTS = Number(process.env.CLIENTS ?? 500);
  const LINES = Number(process.env.LINES ?? 10_000);
  const THREADS = Number(process.env.THREADS ?? 2);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-jobs-'));
  const config = readManagerConfig(
    envReader({
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_FAILURES: '1000000',
      // Every client is the same user.
      JOB_STREAMS_PER_USER: String(CLIENTS),
      JOB_STREAMS_MAX: String(CLIENTS),
    }),
  );
  const manager = await buildManager(config);
  await manager.app.listen({ port: 0, host: '127.0.0.1' });
  const address = manager.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;

  const client = new TestClient(base);
  await client.post('/auth/register', {
    uid: 'bench',
    givenName: 'B',
    sn: 'B',
    mail: 'bench@example.test',
    userPassword: 'correct horse',
  });
  await client.post('/auth/login', { username: 'bench', password: 'correct horse' });
  client.defaultHeaders['x-csrf-token'] = (await client.get('/csrf-token')).body.data.csrfToken;
  const key = (await client.post('/apikeys', { description: 'bench' })).body.data.key as string;

  const { services } = manager;
  const job = await services.jobs.enqueue(
    'bench.lines',
    { lines: LINES },
    (await services.users.repo.findByUid('bench'))!.uid_number,
  );
  const url = `${base}/jobs/${job.id}/stream`;
  const headers = { authorization: `Bearer ${key}` };

  const perThread = Math.ceil(CLIENTS / THREADS);
  const threads = Array.from({ length: THREADS }, (_, index) => {
    const clients = Math.min(perThread, CLIENTS - index * perThread);
    const child = fork(fileURLToPath(import.meta.url), ['--clients'], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
    });
    child.send({ url, headers, clients, lines: LINES } satisfies ClientJob);
    return new Promise<ClientResult>((resolve, reject) => {
      child.once('message', (result) => {
        resolve(result as ClientResult);
        child.disconnect();
      });
      child.once('error', reject);
    });
  });
  const connectBy = Date.now() + 60_000;
  while (services.jobStreams.size < CLIENTS) {
    if (Date.now() > connectBy)
      throw new Error(`only ${services.jobStreams.size} of ${CLIENTS} clients connected`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  // The handler appears only now, so every client is connected before the first row is written.
  let writeMs = 0;
  services.jobHandlers.register<{ lines: number }>('bench.lines', {
    async run(payload, ctx) {
      const started = now();
      for (let line = 1; line <= payload.lines; line++) await ctx.log(`${line} ${now()}`);
      writeMs = now() - started;
    },
  });
  const started = now();
  services.worker.wake();
  const results = await Promise.all(threads);
  const totalMs = now() - started;

  const samples = Float64Array.from(results.flatMap((result) => [...result.samples])).sort();
  const pct = (p: number) =>
    samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] ?? NaN;
  const ok = results.reduce((sum, result) => sum + result.ok, 0);
  const broken = results.reduce((sum, result) => sum + result.broken, 0);
  console.log(`database            ${manager.database.dialect}`);
  console.log(`clients             ${CLIENTS} (${THREADS} client processes)`);
  console.log(`lines               ${LINES}`);
  console.log(`all lines, in order ${ok} clients (${broken} incomplete or out of order)`);
  console.log(
    `rows written in     ${writeMs.toFixed(0)} ms (${((LINES / writeMs) * 1000).toFixed(0)} rows/s)`,
  );
  console.log(`last client done    ${totalMs.toFixed(0)} ms after the first write`);
  console.log(
    `events delivered    ${(ok * LINES).toLocaleString('en')} (${(((ok * LINES) / totalMs) * 1000).toFixed(0)}/s)`,
  );
  console.log(
    `write→client delay  p50 ${pct(50).toFixed(1)} ms, p90 ${pct(90).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms, max ${samples.at(-1)?.toFixed(1)} ms (${samples.length} samples)`,
  );
  await manager.close();
  rmSync(dataDir, { recursive: true, force: true });
}

if (process.argv.includes('--clients')) {
  process.once('message', (job) => {
    void runClients(job as ClientJob).then((result) => process.send!(result));
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
