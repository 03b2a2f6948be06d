// `npm run bench built`: the services as `npm start` runs them, from the build (built first when stale):
// time from process start to the first healthy answer (goal < 1.5 s each), resident memory after start
// and after an authenticated load like the session bench (goals: manager < 120 MB, translator
// < 100 MB), and the first `npm start` on a fresh clone of the committed tree (builds everything). The
// clone's node_modules are hard-linked copies of this checkout's (`npm ci` is not part of that figure).
// BENCH_DURATION_S (default 5) per load; BENCH_FRESH=0 skips the fresh clone.
/* global fetch */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { SERVICE_ENV, nodeFlagsFor } from './service-node-flags.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const MANAGER_PORT = 3610;
const TRANSLATOR_PORT = 3620;
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
// CPU seconds a process used (user + system; clock ticks of 10 ms): start-up cost on a busy machine too.
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

async function untilOk(url, child) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode})`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await sleep(10);
  }
}

async function startService(entry, healthUrl, env) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-built-'));
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...nodeFlagsFor(entry), entry], {
    env: { ...SERVICE_ENV, ...process.env, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  await untilOk(healthUrl, child);
  const startMs = performance.now() - startedAt;
  const startCpuMs = cpuMs(child.pid);
  await sleep(1000); // let start-up work that follows the first answer (seeding, timers) settle
  return {
    child,
    startMs,
    startCpuMs,
    rssStart: rssMb(child.pid),
    output: () => stdout,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function load(url, headers = {}) {
  const result = await autocannon({ url, headers, connections: 10, duration: DURATION_S });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function managerKey(base) {
  const json = { 'content-type': 'application/json' };
  const register = await fetch(`${base}/auth/register`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      uid: 'bench',
      givenName: 'B',
      sn: 'Ench',
      mail: 'bench@example.com',
      userPassword: 'a long bench password',
    }),
  });
  if (!register.ok) throw new Error(`register: ${register.status}`);
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username: 'bench', password: 'a long bench password' }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  const { csrfToken } = (await (await fetch(`${base}/csrf-token`, { headers: { cookie } })).json()).data;
  const key = await fetch(`${base}/apikeys`, {
    method: 'POST',
    headers: { ...json, cookie, 'x-csrf-token': csrfToken },
    body: JSON.stringify({ description: 'bench' }),
  });
  return (await key.json()).data.key;
}

async function benchManager() {
  const base = `http://127.0.0.1:${MANAGER_PORT}/api/v1`;
  const service = await startService('packages/manager/dist/manager.js', `${base}/health`, {
    MANAGER_PORT: String(MANAGER_PORT),
  });
  try {
    const key = await managerKey(base);
    await load(`${base}/health`); // warm-up
    const health = await load(`${base}/health`);
    const session = await load(`${base}/session`, { authorization: `Bearer ${key}` });
    return {
      ...service,
      rssAfter: rssMb(service.child.pid),
      load: `/health ${health.toFixed(0)} req/s, /session (Bearer) ${session.toFixed(0)} req/s`,
    };
  } finally {
    await service.stop();
  }
}

async function benchTranslator() {
  const base = `http://127.0.0.1:${TRANSLATOR_PORT}/api`;
  const service = await startService('packages/translator/dist/translator.js', base, {
    TRANSLATOR_PORT: String(TRANSLATOR_PORT),
  });
  try {
    const key = /API key: (\S+)/.exec(service.output())?.[1];
    if (!key) throw new Error('the translator printed no API key');
    await load(base); // warm-up
    const health = await load(base);
    const project = await load(`${base}/project`, { 'x-api-key': key });
    await load(`http://127.0.0.1:${TRANSLATOR_PORT}/client.js`);
    return {
      ...service,
      rssAfter: rssMb(service.child.pid),
      load: `/api ${health.toFixed(0)} req/s, /api/project (key) ${project.toFixed(0)} req/s, then /client.js`,
    };
  } finally {
    await service.stop();
  }
}

/** Seconds from `npm start` in a fresh clone (nothing built) until both services answer. */
async function freshStart() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-fresh-'));
  try {
    execFileSync('git', ['clone', '-q', '.', dir]);
    for (const modules of [
      'node_modules',
      ...readdirSync('packages').map((name) => `packages/${name}/node_modules`),
    ]) {
      if (existsSync(modules)) execFileSync('cp', ['-al', modules, join(dir, modules)]);
    }
    const startedAt = performance.now();
    const child = spawn('npm', ['start'], {
      cwd: dir,
      detached: true,
      stdio: 'ignore',
      env: {
        ...process.env,
        DATA_DIR: join(dir, 'data'),
        MANAGER_PORT: String(MANAGER_PORT),
        TRANSLATOR_PORT: String(TRANSLATOR_PORT),
      },
    });
    try {
      await untilOk(`http://127.0.0.1:${MANAGER_PORT}/api/v1/health`, child);
      await untilOk(`http://127.0.0.1:${TRANSLATOR_PORT}/api`, child);
      const seconds = (performance.now() - startedAt) / 1000;
      const built = ['manager-web', 'translator-web'].every((name) =>
        existsSync(join(dir, 'packages', name, 'dist', 'index.html')),
      );
      return { seconds, built };
    } finally {
      process.kill(-child.pid, 'SIGTERM');
      await sleep(2000);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const build = spawnSync(process.execPath, ['scripts/build.mjs', '--stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
for (const [name, run, goal] of [
  ['manager', benchManager, 120],
  ['translator', benchTranslator, 100],
]) {
  const result = await run();
  console.log(
    `${name}: start to healthy ${result.startMs.toFixed(0)} ms (goal < 1500), CPU used ${result.startCpuMs} ms`,
  );
  console.log(
    `${name}: RSS after start ${result.rssStart.toFixed(1)} MB, after load ${result.rssAfter.toFixed(1)} MB (goal < ${goal})`,
  );
  console.log(`${name}: load ${result.load}`);
}
if (process.env.BENCH_FRESH !== '0') {
  const fresh = await freshStart();
  console.log(
    `fresh clone: first npm start to both healthy ${fresh.seconds.toFixed(1)} s (web clients built: ${fresh.built})`,
  );
}
