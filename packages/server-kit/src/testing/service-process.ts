import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningService {
  /** Everything the process wrote so far (standard output and error). */
  output(): string;
  /** Resolves once `text` appears in the output; rejects when the process exits first or after `ms`. */
  waitFor(text: string, ms?: number): Promise<void>;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** A service's `src/main.ts` as its own process, on the sources (tsx, the "source" export condition) as the tests run them. */
function spawnMain(entry: string, args: string[], env: Record<string, string>) {
  return spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `<entry> <args>` (an operator command) to its end. */
export function runToEnd(entry: string, args: string[], env: Record<string, string>): Promise<Finished> {
  const child = spawnMain(entry, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (part: Buffer) => (stdout += part.toString()));
  child.stderr.on('data', (part: Buffer) => (stderr += part.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Starts `<entry> <args>` (a service) in the background. */
export function startProcess(entry: string, args: string[], env: Record<string, string>): RunningService {
  const child = spawnMain(entry, args, env);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let code: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (exitCode) => resolve((code = exitCode))),
  );
  return {
    output: () => output,
    exited,
    async waitFor(text, ms = 30_000) {
      const deadline = Date.now() + ms;
      while (!output.includes(text)) {
        if (code !== undefined) throw new Error(`exited (${code}) before "${text}":\n${output}`);
        if (Date.now() > deadline) throw new Error(`no "${text}" within ${ms} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      if (code === undefined) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A loopback port that was free a moment ago (for a process whose port must be known before it starts),
 * below the kernel's ephemeral range: a port from that range (what listen(0) hands out) is where every
 * outgoing connection takes its source port, so on a busy machine one may hold it before the process binds
 * it (nginx then refuses its reload and goes on with the old configuration).
 */
export async function freePort(): Promise<number> {
  const below = ephemeralPortsStart();
  if (below < 2_048) return anyFreePort();
  const lowest = Math.max(1_024, below - 16_384);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = lowest + Math.floor(Math.random() * (below - lowest));
    if (await bindable(port)) return port;
  }
  return anyFreePort();
}

function ephemeralPortsStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 0;
  }
}

function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function anyFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
