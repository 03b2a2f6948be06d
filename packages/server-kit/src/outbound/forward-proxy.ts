import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Agent, buildConnector } from 'undici';
import { guardedConnector } from './guarded-connector.ts';
import type { HostAllowlist } from './host-allowlist.ts';
import { loadUndici } from './undici.ts';

export interface ForwardProxyOptions {
  allowlist: HostAllowlist;
  /** Bound on each upstream connection's set-up (default 5 s). */
  connectTimeoutMs?: number;
  /** Told of every connection the policy refused or that failed (for the log). */
  onRefused?: (target: string, reason: string) => void;
}

/** Headers of one hop only (RFC 9110 §7.6.1), never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const describe = (error: unknown) => {
  const cause = (error as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? cause : error;
  return inner instanceof Error ? `${inner.name}: ${inner.message}` : String(inner);
};

/** `host:port` of a CONNECT request (`[::1]:443` for IPv6), or undefined. */
function connectTarget(authority: string): { hostname: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  const port = Number(match?.[2]);
  if (!match || !port || port > 65535) return undefined;
  return { hostname: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/**
 * A forward proxy on 127.0.0.1 (an ephemeral port) for a browser we drive: plain HTTP by absolute URI,
 * HTTPS and WebSockets by CONNECT, each connection made by the guarded connector — internal addresses
 * refused after resolution unless the allowlist names the host, and the address checked is the one
 * connected to. A redirect the browser follows is a new request, so it meets the policy too. Only a
 * client sending this proxy's credentials (`login`, random for each proxy) is served: another local
 * process cannot use it to reach the internal network.
 */
export class ForwardProxy {
  private readonly sockets = new Set<Socket>();
  private readonly credentials = randomBytes(24).toString('base64url');

  private constructor(
    private readonly server: Server,
    private readonly connect: buildConnector.connector,
    private readonly agent: Agent,
    private readonly options: ForwardProxyOptions,
  ) {}

  static async start(options: ForwardProxyOptions): Promise<ForwardProxy> {
    const connect = await guardedConnector(options.allowlist, options.connectTimeoutMs ?? 5_000);
    const { Agent } = await loadUndici();
    const server = createServer();
    const proxy = new ForwardProxy(server, connect, new Agent({ connect }), options);
    server.on('connection', (socket: Socket) => {
      proxy.sockets.add(socket);
      socket.on('close', () => proxy.sockets.delete(socket));
    });
    server.on('request', (request, response) => void proxy.forward(request, response));
    server.on('connect', (request: IncomingMessage, socket: Socket, head: Buffer) =>
      proxy.tunnel(request, socket, head),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    return proxy;
  }

  /** The proxy's address, `http://127.0.0.1:PORT`. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The user name and password the browser answers the proxy's challenge with. */
  get login(): { username: string; password: string } {
    return { username: 'browser', password: this.credentials };
  }

  private authorized(request: IncomingMessage): boolean {
    const [scheme, value] = (request.headers['proxy-authorization'] ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'basic' || !value) return false;
    const given = Buffer.from(value, 'base64');
    const expected = Buffer.from(`browser:${this.credentials}`);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private refuse(target: string, reason: string) {
    this.options.onRefused?.(target, reason);
  }

  private async forward(request: IncomingMessage, response: ServerResponse) {
    if (!this.authorized(request)) {
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="browser"' }).end();
      return;
    }
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (url.protocol !== 'http:') {
      response.writeHead(400).end();
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name) && name !== 'host'),
    ) as Record<string, string | string[]>;
    const { request: send } = await loadUndici();
    const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
    const hasBody = (length !== undefined && length !== '0') || chunked !== undefined;
    try {
      const answer = await send(url, {
        method: request.method as 'GET',
        headers,
        body: hasBody ? request : null,
        dispatcher: this.agent,
      });
      const passed = Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name));
      response.writeHead(answer.statusCode, Object.fromEntries(passed));
      answer.body.on('error', () => response.destroy());
      response.on('close', () => answer.body.destroy());
      answer.body.pipe(response);
    } catch (error) {
      this.refuse(url.origin, describe(error));
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    }
  }

  private tunnel(request: IncomingMessage, client: Socket, head: Buffer) {
    client.on('error', () => client.destroy());
    if (!this.authorized(request)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="browser"\r\n\r\n',
      );
      return;
    }
    const target = connectTarget(request.url ?? '');
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    this.connect(
      { hostname: target.hostname, port: String(target.port), protocol: 'http:' },
      (error, upstream) => {
        if (error || !upstream) {
          this.refuse(request.url ?? '', describe(error));
          client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
          return;
        }
        this.sockets.add(upstream as Socket);
        upstream.on('close', () => this.sockets.delete(upstream as Socket));
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        client.pipe(upstream);
        upstream.pipe(client);
      },
    );
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await Promise.all([
      new Promise<void>((resolve) => this.server.close(() => resolve())),
      this.agent.close(),
    ]);
  }
}
