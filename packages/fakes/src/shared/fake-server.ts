import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { rmSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Controls } from './controls.ts';
import type { FailureSpec, RecordedRequest, ReplySpec, RequestMatch } from './controls.ts';
import type { Router } from './router.ts';
import { testCertificate } from './tls.ts';
import type { TlsMaterial } from './tls.ts';
import { FakeHttpError } from './types.ts';
import type { FakeReply, FakeRequest, Transport } from './types.ts';
import { reasonPhrase, writeRawReply } from './raw-reply.ts';

export interface FakeServerOptions {
  /** Loopback by default. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** `true` serves HTTPS with the shipped self-signed test certificate; or give your own. */
  tls?: boolean | TlsMaterial;
}

/**
 * The HTTP plumbing every fake shares: listeners (TCP, optional TLS, optional unix socket), the request
 * log, latency and failure injection, "unreachable" mode, and error rendering through the subclass.
 */
export abstract class FakeServer {
  protected readonly controls = new Controls();
  protected abstract readonly router: Router;
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();
  private boundPort = 0;
  private started = false;

  constructor(protected readonly serverOptions: FakeServerOptions & { socketPath?: string } = {}) {}

  /** The system's own error format for `err` (Proxmox reason phrases, Docker `{message}`, ...). */
  protected abstract renderError(err: FakeHttpError, req: FakeRequest): FakeReply;

  /** Headers the real system puts on every answer. */
  protected commonHeaders(_req: FakeRequest): Record<string, string> {
    return {};
  }

  /** Unknown path or method. */
  protected notFound(req: FakeRequest): FakeHttpError {
    return new FakeHttpError(404, `Not found: ${req.method} ${req.path}`);
  }

  /** Hook run on every request first, before injected failures and replies (it must not throw). */
  protected observe(_req: FakeRequest): void {}

  /** Hook run before routing (authentication, version prefixes...). May rewrite `req.path`. */
  protected beforeRoute(_req: FakeRequest): void | Promise<void> {}

  /** Hook run on a route's answer (not on errors) before it is written. */
  protected afterRoute(_req: FakeRequest, reply: FakeReply): FakeReply {
    return reply;
  }

  /**
   * A request asking to switch protocols (`Upgrade:`), answered `reply` like any other; a fake that
   * speaks the protocol takes the socket over here. By default the answer is written and the
   * connection closed, as a server that upgrades nothing does.
   */
  protected upgrade(req: FakeRequest, reply: FakeReply, socket: Duplex, _head: Buffer): void {
    writeRawReply(socket, { ...reply, headers: { ...this.commonHeaders(req), ...reply.headers } });
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    const host = this.serverOptions.host ?? '127.0.0.1';
    const scheme = this.serverOptions.tls ? 'https' : 'http';
    return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${this.boundPort}`;
  }

  get socketPath(): string | undefined {
    return this.serverOptions.socketPath;
  }

  async start(): Promise<this> {
    if (this.started) return this;
    await this.listen(this.serverOptions.port ?? 0);
    this.started = true;
    return this;
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.closeListeners();
  }

  /** `true` closes every listener (connections are refused); `false` listens again on the same port. */
  async setUnreachable(unreachable: boolean): Promise<void> {
    if (unreachable) await this.closeListeners();
    else if (this.servers.length === 0) await this.listen(this.boundPort);
  }

  get requests(): readonly RecordedRequest[] {
    return this.controls.requests;
  }
  countRequests(match: RequestMatch = {}): number {
    return this.controls.countRequests(match);
  }
  clearRequests(): void {
    this.controls.clearRequests();
  }
  setLatency(ms: number, match: RequestMatch = {}): void {
    this.controls.setLatency(ms, match);
  }
  failNext(count: number, spec: FailureSpec): void {
    this.controls.failNext(count, spec);
  }
  failAlways(spec: FailureSpec): void {
    this.controls.failAlways(spec);
  }
  /** The next `count` matching requests get `spec.reply` (served before authentication and routing). */
  replyNext(count: number, spec: ReplySpec): void {
    this.controls.replyNext(count, spec);
  }
  /** Clears failures and reply overrides. */
  clearFailures(): void {
    this.controls.clearFailures();
  }
  /** Clears failures, latency and the request log (not the fake's data). */
  resetControls(): void {
    this.controls.reset();
  }

  private async listen(port: number): Promise<void> {
    const tcp = this.createServer('tcp');
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(port, this.serverOptions.host ?? '127.0.0.1', () => resolve());
    });
    this.boundPort = (tcp.address() as AddressInfo).port;
    this.servers.push(tcp);
    const socketPath = this.serverOptions.socketPath;
    if (socketPath) {
      rmSync(socketPath, { force: true });
      const unix = this.createServer('unix');
      await new Promise<void>((resolve, reject) => {
        unix.once('error', reject);
        unix.listen(socketPath, () => resolve());
      });
      this.servers.push(unix);
    }
  }

  private async closeListeners(): Promise<void> {
    const servers = this.servers.splice(0);
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }

  private createServer(transport: Transport): Server {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res, transport).catch(() => res.destroy());
    };
    const tls = transport === 'tcp' ? this.serverOptions.tls : undefined;
    const server = tls
      ? createHttpsServer(tls === true ? testCertificate() : tls, handler)
      : createHttpServer(handler);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.handleUpgrade(req, socket, head, transport).catch(() => socket.destroy());
    });
    server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    return server;
  }

  private async handle(raw: IncomingMessage, res: ServerResponse, transport: Transport): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    const req = await this.receive(raw, Buffer.concat(chunks), transport);
    const reply = await this.dispatch(req);
    await this.write(res, req, reply);
  }

  /** Upgrade requests carry no body: what follows the head belongs to the new protocol. */
  private async handleUpgrade(raw: IncomingMessage, socket: Duplex, head: Buffer, transport: Transport) {
    const req = await this.receive(raw, Buffer.alloc(0), transport);
    this.upgrade(req, await this.dispatch(req), socket, head);
  }

  /** The request as handlers see it, recorded, after any injected latency. */
  private async receive(raw: IncomingMessage, body: Buffer, transport: Transport): Promise<FakeRequest> {
    const url = new URL(raw.url ?? '/', 'http://fake');
    const req: FakeRequest = {
      method: (raw.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      headers: raw.headers,
      body,
      params: {},
      transport,
      raw,
    };
    this.controls.requests.push({
      method: req.method,
      path: req.path,
      query: Object.fromEntries(url.searchParams),
      headers: raw.headers,
      body: req.body.toString('utf8'),
      transport,
      time: Date.now(),
    });
    const delay = this.controls.latencyFor(req.method, req.path);
    if (delay > 0) await sleep(delay);
    return req;
  }

  private async dispatch(req: FakeRequest): Promise<FakeReply> {
    try {
      this.observe(req);
      const failure = this.controls.takeFailure(req.method, req.path);
      if (failure) throw new FakeHttpError(failure.status, failure.message ?? defaultMessage(failure.status));
      const override = this.controls.takeReply(req.method, req.path);
      if (override) return typeof override.reply === 'function' ? override.reply(req) : override.reply;
      await this.beforeRoute(req);
      const route = this.router.match(req.method, req.path);
      if (!route) throw this.notFound(req);
      req.params = route.params;
      return this.afterRoute(req, await route.handler(req));
    } catch (error) {
      const err =
        error instanceof FakeHttpError ? error : new FakeHttpError(500, (error as Error).message ?? 'error');
      return this.renderError(err, req);
    }
  }

  private async write(res: ServerResponse, req: FakeRequest, reply: FakeReply): Promise<void> {
    const headers = { ...this.commonHeaders(req), ...reply.headers };
    const body = reply.body ?? '';
    const reason = reasonPhrase(reply.reason);
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      const buffer = typeof body === 'string' ? Buffer.from(body) : body;
      headers['content-length'] = String(buffer.length);
      res.writeHead(reply.status, reason, headers);
      res.end(req.method === 'HEAD' ? undefined : buffer);
      return;
    }
    res.writeHead(reply.status, reason, headers);
    res.flushHeaders();
    for await (const chunk of body) {
      if (res.destroyed) return;
      res.write(chunk);
    }
    res.end();
  }
}

function defaultMessage(status: number): string {
  const texts: Record<number, string> = {
    400: 'bad request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not found',
    409: 'conflict',
    429: 'too many requests',
    500: 'internal server error',
    502: 'bad gateway',
    503: 'service unavailable',
    504: 'gateway timeout',
  };
  return texts[status] ?? `injected failure ${status}`;
}
