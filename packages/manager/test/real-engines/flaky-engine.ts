import { connect, createServer, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const START = /^POST \/v[\d.]+\/containers\/[0-9a-f]+\/start /m;

/**
 * A unix socket in front of a real engine that passes calls through, except the first call to start a
 * container: `onStart` decides what happens to it (`goAway` drops every connection and refuses new ones
 * for a while), and it never reaches the engine.
 */
async function startInterceptor(
  target: string,
  name: string,
  onStart: (proxy: { goAway(downMs: number): void }) => void,
) {
  const socketPath = join(tmpdir(), `fleet-${name}-engine-${process.pid}.sock`);
  const open = new Set<Socket>();
  let tripped = false;
  const server = createServer((client) => {
    const upstream = connect(target);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => {
      if (!tripped && START.test(chunk.toString('latin1'))) {
        tripped = true;
        onStart({ goAway });
        return;
      }
      upstream.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
  });
  const listen = () =>
    new Promise<void>((resolve) => {
      rmSync(socketPath, { force: true });
      server.listen(socketPath, resolve);
    });
  const goAway = (downMs: number) => {
    server.close();
    rmSync(socketPath, { force: true });
    for (const socket of open) socket.destroy();
    setTimeout(() => void listen(), downMs);
  };
  await listen();
  return {
    socketPath,
    tripped: () => tripped,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}

/**
 * An engine that goes away once, as an engine being stopped would: when asked to start a container it
 * drops every connection and refuses new ones for `downMs`, then passes calls through again. (The
 * engine itself keeps what it made, as a restarted one does.)
 */
export const flakyEngine = (target: string, downMs: number) =>
  startInterceptor(target, 'flaky', (proxy) => proxy.goAway(downMs));

/**
 * An engine that never answers the first start of a container (the container stays created, not
 * running): the caller waits until it gives up or dies.
 */
export const stallingEngine = (target: string) => startInterceptor(target, 'stalling', () => undefined);
