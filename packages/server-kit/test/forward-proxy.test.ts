import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForwardProxy, HostAllowlist } from '../src/index.ts';

// A browser's proxy, used as Chromium uses it: absolute-URI requests for plain HTTP, CONNECT for
// HTTPS and WebSockets. `allowed` is the site (allowlisted by address and port); `trap` is another
// port on loopback standing for an internal service.

interface Seen {
  port: number;
  seen: string[];
  close(): Promise<void>;
}

async function listen(name: string): Promise<Seen> {
  const seen: string[] = [];
  const server = createServer(async (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === '/moved') return res.writeHead(302, { location: '/elsewhere' }).end();
    let body = '';
    for await (const chunk of req) body += String(chunk);
    res
      .writeHead(200, { 'content-type': 'text/plain', 'x-served-by': name })
      .end(`${name} ${req.method} ${req.url}${body ? ` ${body}` : ''}`);
  });
  server.on('connection', () => seen.push('connection'));
  server.on('upgrade', (req, socket: Socket) => {
    seen.push(`upgrade ${req.url}`);
    socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let allowed: Seen;
let trap: Seen;
let proxy: ForwardProxy;
const refused: string[] = [];
let authorization: string;

/** A request to the proxy as a browser sends one: the absolute URI as the path (a POST when given a body). */
function viaProxy(
  url: string,
  headers: Record<string, string> = { 'proxy-authorization': authorization },
  post?: string,
) {
  const { port } = new URL(proxy.url);
  const method = post === undefined ? 'GET' : 'POST';
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path: url, headers, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end(post);
    },
  );
}

/** A CONNECT to `authority`; on 200, a WebSocket handshake through the tunnel, answered with its status line. */
function tunnel(
  authority: string,
  headers: Record<string, string> = { 'proxy-authorization': authorization },
) {
  const { port } = new URL(proxy.url);
  return new Promise<{ status: number; through?: string }>((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
    });
    req.on('connect', (res: IncomingMessage, socket: Socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode! });
      }
      socket.write(
        `GET /chat HTTP/1.1\r\nHost: ${authority}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      socket.once('data', (data) => {
        socket.destroy();
        resolve({ status: 200, through: data.toString('latin1').split('\r\n')[0] });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  [allowed, trap] = await Promise.all([listen('site'), listen('trap')]);
  proxy = await ForwardProxy.start({
    allowlist: new HostAllowlist([`127.0.0.1:${allowed.port}`]),
    onRefused: (target, reason) => refused.push(`${target}: ${reason}`),
  });
  const { username, password } = proxy.login;
  authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
});

afterAll(async () => {
  await proxy?.close();
  await Promise.all([allowed?.close(), trap?.close()]);
});

describe("a browser's forward proxy", () => {
  it('listens on 127.0.0.1', () => {
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('passes plain HTTP requests (a GET, a POST with its body) to an allowlisted host through, and a redirect back as it is', async () => {
    const page = await viaProxy(`http://127.0.0.1:${allowed.port}/page?a=1`);
    expect(page).toMatchObject({ status: 200, body: 'site GET /page?a=1' });
    const posted = await viaProxy(`http://127.0.0.1:${allowed.port}/form`, undefined, 'name=value');
    expect(posted).toMatchObject({ status: 200, body: 'site POST /form name=value' });
    expect(page.headers['x-served-by']).toBe('site');
    // The browser follows it as a new request through the proxy, so each hop meets the policy.
    const moved = await viaProxy(`http://127.0.0.1:${allowed.port}/moved`);
    expect(moved.status).toBe(302);
    expect(moved.headers.location).toBe('/elsewhere');
  });

  it('tunnels a WebSocket to an allowlisted host', async () => {
    expect(await tunnel(`127.0.0.1:${allowed.port}`)).toEqual({
      status: 200,
      through: 'HTTP/1.1 101 Switching Protocols',
    });
    expect(allowed.seen).toContain('upgrade /chat');
  });

  it('serves no one without its credentials (407), and the target sees nothing', async () => {
    const before = allowed.seen.length;
    const attempts: Record<string, string>[] = [{}, { 'proxy-authorization': 'Basic YnJvd3Nlcjp3cm9uZw==' }];
    for (const headers of attempts) {
      const answer = await viaProxy(`http://127.0.0.1:${allowed.port}/`, headers);
      expect(answer.status).toBe(407);
      expect(answer.headers['proxy-authenticate']).toMatch(/^Basic /);
      expect(await tunnel(`127.0.0.1:${allowed.port}`, headers)).toEqual({ status: 407 });
    }
    expect(allowed.seen.length).toBe(before);
  });

  it('refuses a loopback port the allowlist does not name (502), by request and by tunnel', async () => {
    refused.length = 0;
    expect((await viaProxy(`http://127.0.0.1:${trap.port}/secret`)).status).toBe(502);
    expect(await tunnel(`127.0.0.1:${trap.port}`)).toEqual({ status: 502 });
    expect(await tunnel(`[::ffff:127.0.0.1]:${trap.port}`)).toEqual({ status: 502 });
    expect(trap.seen).toEqual([]);
    expect(refused).toHaveLength(3);
    for (const line of refused) expect(line).toMatch(/loopback/);
  });

  it('resolves a name and refuses it when it resolves to loopback (localhost, not allowlisted)', async () => {
    refused.length = 0;
    expect((await viaProxy(`http://localhost:${allowed.port}/`)).status).toBe(502);
    expect(await tunnel(`localhost:${allowed.port}`)).toEqual({ status: 502 });
    expect(refused).toHaveLength(2);
    for (const line of refused) expect(line).toMatch(/localhost resolves to (127\.0\.0\.1|::1) \(loopback\)/);
    expect(allowed.seen).not.toContain('GET /');
  });

  it('refuses private, link-local and metadata addresses by their address', async () => {
    refused.length = 0;
    for (const authority of ['10.0.0.1:80', '192.168.1.1:443', '169.254.169.254:80', '[fd00::1]:443'])
      expect(await tunnel(authority)).toEqual({ status: 502 });
    expect((await viaProxy('http://169.254.169.254/latest/meta-data/')).status).toBe(502);
    expect(refused.map((line) => line.replace(/^.*: /, ''))).toEqual([
      '10.0.0.1 is private',
      '192.168.1.1 is private',
      '169.254.169.254 is link-local (cloud metadata)',
      'fd00::1 is unique local (cloud metadata)',
      '169.254.169.254 is link-local (cloud metadata)',
    ]);
  });
});
