// Terminal echo latency through the manager: SESSIONS browser terminals (WebSockets with an API key) on
// a dummy node type KEYS keystrokes each, one at a time, all sessions at once; the time from a
// keystroke's frame leaving the client to its echo arriving. Goal: p99 < 50 ms on loopback.
// BENCH_ENGINE=docker: the same on a real Docker Engine (Docker's exec API with a TTY behind the manager;
// starts dockerd and a registry when needed, as root, and removes what it made).
// The clients run in this process, beside the manager (the figures include their share of the CPU).
import { performance } from 'node:perf_hooks';
import { adminClient } from '../test/helpers.ts';
import { siteInput, startFleetManager } from '../test/fleet-helpers.ts';
import { jobEnds } from '../test/container-helpers.ts';
import { acceptedTerminal, type TerminalClient } from '../test/terminal-client.ts';
import type { Undo } from '../test/real-engines/services.ts';
import { dockerSite } from './fixtures/docker-site.ts';

const SESSIONS = Number(process.env.SESSIONS ?? 50);
const KEYS = Number(process.env.KEYS ?? 200);
const ENGINE = process.env.BENCH_ENGINE === 'docker';
const ESC = String.fromCharCode(0x1b);

/** Types KEYS letters, each after the previous one's echo: the delay of each. */
async function typeAndTime(terminal: TerminalClient): Promise<number[]> {
  // The prompt, perhaps followed by the shell's escape sequences (BusyBox's ash redraws it after asking
  // for the cursor position).
  await terminal.waitFor(new RegExp(`[#$] (${ESC}\\[[0-9;]*[A-Za-z])*$`));
  const delays: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const echoed = new Promise<void>((resolve) => terminal.socket.once('message', () => resolve()));
    const sent = performance.now();
    terminal.type(String.fromCharCode(97 + (i % 26)));
    await echoed;
    delays.push(performance.now() - sent);
  }
  terminal.socket.close();
  return delays;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** The node the terminals open on: a dummy node, or with BENCH_ENGINE=docker a real Docker Engine. */
async function nodeFor(admin: Awaited<ReturnType<typeof adminClient>>, undo: Undo[]) {
  if (!ENGINE) {
    const siteId = (await admin.post('/sites', siteInput())).body.data.id as number;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'bench-node', nodeType: 'dummy' });
    return { siteId, image: 'debian:12', label: 'dummy node' };
  }
  const { siteId, image } = await dockerSite(admin, undo, {
    subnet: '10.231.6',
    repository: 'fleet-bench/shell',
    prefix: 'bench-shell',
  });
  return { siteId, image, label: 'real Docker Engine' };
}

const undo: Undo[] = [];
try {
  const test = await startFleetManager({ TERMINAL_MAX_SESSIONS: String(SESSIONS), NODE_TIMEOUT_MS: '30000' });
  undo.push(() => test.close());
  const admin = await adminClient(test);
  const key = (await admin.post('/apikeys', { description: 'bench' })).body.data.key as string;
  const { siteId, image, label } = await nodeFor(admin, undo);
  const created = (
    await admin.post(`/sites/${siteId}/containers`, { template: image, hostname: 'bench-shell' })
  ).body.data as { containerId: number; jobId: number };
  if ((await jobEnds(admin, created.jobId)) !== 'success') throw new Error('the container was not created');
  const path = `/sites/${siteId}/containers/${created.containerId}/terminal`;
  const terminals = await Promise.all(
    Array.from({ length: SESSIONS }, () => acceptedTerminal(test.baseUrl, path, { key })),
  );
  const started = performance.now();
  const delays = (await Promise.all(terminals.map(typeAndTime))).flat().sort((a, b) => a - b);
  const seconds = (performance.now() - started) / 1000;
  const p99 = percentile(delays, 0.99);
  console.log(`database: ${test.manager.database.dialect}; ${label}`);
  console.log(
    `${SESSIONS} sessions × ${KEYS} keystrokes in ${seconds.toFixed(1)} s (${(delays.length / seconds).toFixed(0)} echoes/s)`,
  );
  console.log(
    `echo latency  p50 ${percentile(delays, 0.5).toFixed(2)} ms, p90 ${percentile(delays, 0.9).toFixed(2)} ms, ` +
      `p99 ${p99.toFixed(2)} ms (goal < 50 ms), max ${delays.at(-1)!.toFixed(2)} ms`,
  );
} finally {
  for (const step of undo.reverse()) await step();
}
