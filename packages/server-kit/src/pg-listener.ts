import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { loadPg } from './pg-module.ts';

export interface PgListenerOptions {
  databaseUrl: string | undefined;
  /** PostgreSQL schema in use (tests): channels are named per schema, so test files never hear each other. */
  schema?: string | undefined;
  log: FastifyBaseLogger;
}

/**
 * The name of channel `base` in a database: per PostgreSQL schema when one is in use (tests give each file
 * its own schema on one database), so processes on different schemas never hear each other.
 */
export function pgChannelName(base: string, schema: string | undefined): string {
  return schema ? `${base}_${schema}`.toLowerCase() : base;
}

/** Waits `ms`, or less when `signal` aborts. */
const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

interface Channel {
  onMessage(payload: string): void;
  /** After a reconnect: notifications sent meanwhile are lost, so the subscriber reads back what it needs. */
  onGap(): void;
}

/**
 * The process's one LISTEN connection on PostgreSQL, shared by every channel (the manager's job events and
 * site configuration changes, the translator's cache invalidations). Reconnects with back-off when the
 * connection is lost.
 */
export class PgListener {
  private readonly channels = new Map<string, Channel>();
  private client: pg.Client | undefined;
  private closed = false;
  /** Cuts a reconnect back-off short when the listener closes. */
  private stopping = new AbortController();

  constructor(private readonly options: PgListenerOptions) {}

  /** The name of channel `base` in this database. */
  channelName(base: string): string {
    return pgChannelName(base, this.options.schema);
  }

  /** Subscribes to `channel` (a name from channelName); effective from start() on. */
  on(channel: string, handler: Channel): void {
    this.channels.set(channel, handler);
  }

  async start(): Promise<void> {
    this.closed = false;
    this.stopping = new AbortController();
    await this.listen();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopping.abort();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** Connects and listens; false (and no connection kept) when close() came meanwhile. */
  private async listen(): Promise<boolean> {
    const client = new (loadPg().Client)({
      connectionString: this.options.databaseUrl,
      ...(this.options.schema ? { options: `-c search_path=${this.options.schema}` } : {}),
    });
    client.on('notification', (message) => {
      if (message.payload !== undefined) this.channels.get(message.channel)?.onMessage(message.payload);
    });
    client.on('error', (error) => {
      this.options.log.warn({ err: error }, 'LISTEN connection lost; reconnecting');
      void this.reconnect(client);
    });
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN "${channel}"`);
    } catch (error) {
      // A connection that could not LISTEN is not kept (each retry would leave one open).
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      // close() came while this connection was being made: it found nothing to end.
      await client.end().catch(() => undefined);
      return false;
    }
    this.client = client;
    return true;
  }

  private async reconnect(failed: pg.Client) {
    if (this.closed || this.client !== failed) return;
    this.client = undefined;
    await failed.end().catch(() => undefined);
    for (let delay = 250; !this.closed; delay = Math.min(delay * 2, 5000)) {
      try {
        if (await this.listen()) for (const channel of this.channels.values()) channel.onGap();
        return;
      } catch (error) {
        this.options.log.warn({ err: error }, 'LISTEN reconnect failed');
        await wait(delay, this.stopping.signal);
      }
    }
  }
}
