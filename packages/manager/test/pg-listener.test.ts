import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '@app/server-kit/testing';
import { PgListener } from '@app/server-kit';
import { eventually } from './fleet-helpers.ts';

const silent = { warn: () => undefined } as unknown as FastifyBaseLogger;

/** A TCP proxy to PostgreSQL that can cut connections and hold new ones before forwarding them. */
class Proxy {
  readonly clients: Socket[] = [];
  private server: Server | undefined;
  private held: (() => void)[] = [];
  hold = false;

  async start(target: URL): Promise<string> {
    this.server = createServer((client) => {
      this.clients.push(client);
      const forward = () => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        upstream.on('error', () => client.destroy());
      };
      client.on('error', () => undefined);
      if (this.hold) {
        client.pause();
        this.held.push(forward);
      } else forward();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String((this.server.address() as AddressInfo).port);
    return url.toString();
  }

  release() {
    this.hold = false;
    for (const forward of this.held.splice(0)) forward();
  }

  async close() {
    for (const client of this.clients) client.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

describe.runIf(testDialect() === 'postgres')('PgListener', () => {
  const proxy = new Proxy();
  let url: string;
  beforeAll(async () => {
    url = await proxy.start(new URL(process.env.TEST_DATABASE_URL!));
  });
  afterAll(() => proxy.close());

  it('closed while it reconnects, it leaves no connection open', async () => {
    const listener = new PgListener({ databaseUrl: url, log: silent });
    let gaps = 0;
    listener.on('pg_listener_test', { onMessage: () => undefined, onGap: () => gaps++ });
    await listener.start();
    expect(proxy.clients).toHaveLength(1);

    // The connection drops; the reconnect's new connection is held until the listener was closed.
    proxy.hold = true;
    proxy.clients[0]!.destroy();
    await eventually(async () => proxy.clients.length === 2);
    await listener.close();
    proxy.release();

    const second = proxy.clients[1]!;
    await eventually(async () => second.destroyed || second.readableEnded, 3000);
    expect(gaps).toBe(0);
  });
});
