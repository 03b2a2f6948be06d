import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A bench's server under test runs in a process of its own, driven over IPC, so it has its own event loop
 * and its CPU time can be read apart from the load generator's. The fixture side is serveBench, the
 * bench's side startBenchServer.
 */

/** A server a bench fixture started: where it answers, the API key it wants if any, how to stop it. */
export interface BenchServer {
  url: string;
  key?: string;
  stop(): Promise<void>;
}

type Control = { type: 'cpu' } | { type: 'stop' };

/**
 * The fixture process: `service` (the real service) starts at once; without it the process says
 * `waiting` and starts what `standIn` makes of the bench's next message (a server answering the bytes it
 * is sent). Then it says `ready`, answers `cpu` with its CPU time and exits on `stop`.
 */
export async function serveBench<M extends { type: string }>(start: {
  service?: (() => Promise<BenchServer>) | undefined;
  standIn: (message: M) => Promise<BenchServer>;
}): Promise<void> {
  const send = (message: unknown) => process.send!(message);
  let stop = async () => {};
  const ready = (server: BenchServer) => {
    stop = server.stop;
    send({ type: 'ready', url: server.url, ...(server.key ? { key: server.key } : {}) });
  };
  process.on('message', async (message: Control | M) => {
    if (message.type === 'cpu') send({ type: 'cpu', usage: process.cpuUsage() });
    else if (message.type === 'stop') {
      await stop();
      process.exit(0);
    } else ready(await start.standIn(message as M));
  });
  if (start.service) ready(await start.service());
  else send({ type: 'waiting' });
}

/** A plain node:http server on a loopback port: the baseline a bench compares the service with. */
export async function bareBenchServer(listener: RequestListener): Promise<BenchServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The bench's handle on a fixture process. */
export interface BenchProcess {
  url: string;
  key?: string;
  /** The CPU time the process used so far, in microseconds. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Forks `fixture` (a serveBench process) with `role` as its argument, on the sources; `standIn` is the
 * message for a process that waits for one. Resolves once it is ready.
 */
export async function startBenchServer(
  fixture: string,
  role: string,
  {
    standIn,
    output = 'inherit',
  }: { standIn?: { type: string; [field: string]: unknown } | undefined; output?: 'inherit' | 'ignore' } = {},
): Promise<BenchProcess> {
  const child = fork(fixture, [role], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', output, 'inherit', 'ipc'],
  });
  if (standIn) {
    await next(child, 'waiting');
    child.send(standIn);
  }
  const { url, key } = (await next(child, 'ready')) as { url: string; key?: string };
  return {
    url,
    ...(key ? { key } : {}),
    async cpuMicros() {
      const reply = next(child, 'cpu');
      child.send({ type: 'cpu' });
      const { usage } = (await reply) as { usage: NodeJS.CpuUsage };
      return usage.user + usage.system;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

function next(child: ChildProcess, type: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const listen = (received: Record<string, unknown>) => {
      if (received.type !== type) return;
      child.off('message', listen);
      resolve(received);
    };
    child.on('message', listen);
  });
}
