import { createServer, type Server } from 'node:http';
import { get as httpsGet } from 'node:https';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GuardedClient,
  GuardedHttpsAgent,
  HostAllowlist,
  hostRefusalReason,
  normalizeFingerprint,
  OutboundError,
  parseAllowedHost,
  readTextLimited,
  refusedAddressReason,
} from '../src/index.ts';

describe('which addresses users may make the server call', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '100.100.100.200',
    '169.254.169.254',
    '169.254.170.2',
    '192.0.0.192',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    'fd00:ec2::254',
    'fc00::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    'localhost',
  ])('refuses %s', (address) => {
    expect(refusedAddressReason(address)).toBeDefined();
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '::ffff:8.8.8.8',
    '2606:4700::1111',
    '2a00:1450::1',
  ])('lets %s through', (address) => {
    expect(refusedAddressReason(address)).toBeUndefined();
  });

  it('judges a host by its address or by what its name resolves to', async () => {
    expect(await hostRefusalReason('localhost')).toMatch(/resolves to/);
    expect(await hostRefusalReason('[::1]')).toBe('loopback');
    expect(await hostRefusalReason('10.0.0.1')).toBe('private');
    expect(await hostRefusalReason('8.8.8.8')).toBeUndefined();
  });

  it('reads allowlist entries as host or host:port, and nothing else', () => {
    expect(parseAllowedHost('Registry.Example')).toEqual({ hostname: 'registry.example', port: undefined });
    expect(parseAllowedHost('127.0.0.1:5000')).toEqual({ hostname: '127.0.0.1', port: 5000 });
    expect(parseAllowedHost('[FD00::5]:80')).toEqual({ hostname: 'fd00::5', port: 80 });
    expect(parseAllowedHost('::1')).toEqual({ hostname: '::1', port: undefined });
    for (const bad of ['', 'http://x', 'x/y', 'a b', 'u@x', 'x:99999', 'x:port'])
      expect(parseAllowedHost(bad), bad).toBeUndefined();
    const list = new HostAllowlist(['127.0.0.1:5000', 'registry.example', '[::1]']);
    expect(list.allows('127.0.0.1', 5000)).toBe(true);
    expect(list.allows('127.0.0.1', 5001)).toBe(false);
    expect(list.allows('REGISTRY.example', 443)).toBe(true);
    expect(list.allows('::1', 8080)).toBe(true);
    expect(list.allows('[::1]', 8080)).toBe(true);
    expect(list.allows('localhost', 5000)).toBe(false);
  });

  it('takes SHA-256 fingerprints as Proxmox VE shows them, or as plain hex', () => {
    const colons = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join(':');
    expect(normalizeFingerprint(colons)).toBe(colons.toUpperCase());
    expect(normalizeFingerprint(colons.replace(/:/g, ''))).toBe(colons.toUpperCase());
    for (const bad of ['', 'AA:BB', `${colons}:00`, colons.replace(/:/g, '-'), 'x'.repeat(64)])
      expect(normalizeFingerprint(bad), bad).toBeUndefined();
  });
});

describe('the guarded client', () => {
  let server: Server;
  let port: number;
  let hits: string[];

  beforeAll(async () => {
    hits = [];
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.method === 'POST') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => res.writeHead(req.url === '/hop' ? 302 : 200, { location: '/end' }).end(body));
        return;
      }
      if (req.url === '/hop') return res.writeHead(302, { location: `http://127.0.0.1:${port}/end` }).end();
      if (req.url === '/away') return res.writeHead(307, { location: `http://localhost:${port}/end` }).end();
      if (req.url === '/big') return res.end('x'.repeat(2048));
      res.end(JSON.stringify({ auth: req.headers.authorization ?? null }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const client = (entries: string[]) => new GuardedClient({ allowlist: new HostAllowlist(entries) });

  it('refuses loopback unless allowlisted, before a connection is made', async () => {
    const guarded = client([]);
    await expect(guarded.get(`http://127.0.0.1:${port}/x`)).rejects.toBeInstanceOf(OutboundError);
    await expect(guarded.get(`https://127.0.0.1:${port}/x`)).rejects.toBeInstanceOf(OutboundError);
    await expect(guarded.get(`https://localhost:${port}/x`)).rejects.toThrow(/resolves to/);
    await guarded.close();
    expect(hits).toEqual([]);
    const open = client([`127.0.0.1:${port}`]);
    const answer = await open.get(`http://127.0.0.1:${port}/x`, { headers: { authorization: 'Bearer t' } });
    expect(await answer.json()).toEqual({ auth: 'Bearer t' });
    await open.close();
  });

  it('judges each redirect again and bounds body reads', async () => {
    hits.length = 0;
    const byName = client([`127.0.0.1:${port}`]);
    const followed = await byName.get(`http://127.0.0.1:${port}/hop`);
    expect(followed.status).toBe(200);
    expect(hits).toEqual(['/hop', '/end']);
    await followed.body?.cancel();
    await expect(readTextLimited(await byName.get(`http://127.0.0.1:${port}/big`), 1024)).rejects.toThrow(
      /larger than 1 KiB/,
    );
    await byName.close();
    // localhost is the same address under a name that is not on the list.
    hits.length = 0;
    const away = client([`127.0.0.1:${port}`]);
    await expect(away.get(`http://127.0.0.1:${port}/away`)).rejects.toBeInstanceOf(OutboundError);
    expect(hits).toEqual(['/away']);
    await away.close();
  });

  it('posts a body to an allowed address, refuses loopback otherwise, and does not follow a redirect', async () => {
    hits.length = 0;
    await expect(client([]).post(`http://127.0.0.1:${port}/x`, 'hi')).rejects.toBeInstanceOf(OutboundError);
    expect(hits).toEqual([]);
    const open = client([`127.0.0.1:${port}`]);
    const answer = await open.post(`http://127.0.0.1:${port}/x`, '{"a":1}', {
      headers: { 'content-type': 'application/json' },
    });
    expect([answer.status, await answer.text()]).toEqual([200, '{"a":1}']);
    const redirected = await open.post(`http://127.0.0.1:${port}/hop`, 'again');
    expect(redirected.status).toBe(302);
    await redirected.body?.cancel();
    expect(hits).toEqual(['/x', '/hop']);
    await open.close();
  });
});

describe('the guarded https agent (for libraries on node:https)', () => {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  let port: number;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const agent = (entries: string[]) => new GuardedHttpsAgent({ allowlist: new HostAllowlist(entries) });
  /** How a GET through `through` ended: the error it met. */
  const attempt = (through: GuardedHttpsAgent, url: string) =>
    new Promise<Error>((resolve) => {
      const request = httpsGet(url, { agent: through }, (response) => {
        response.resume();
        resolve(new Error(`answered ${response.statusCode}`));
      });
      request.on('error', resolve);
    });

  it('refuses loopback, by address or by name, unless allowlisted, before a connection is made', async () => {
    const guarded = agent([]);
    expect((await attempt(guarded, `https://127.0.0.1:${port}/`)).message).toMatch(
      /127\.0\.0\.1 is loopback/,
    );
    expect((await attempt(guarded, `https://localhost:${port}/`)).message).toMatch(/localhost resolves to/);
    expect(connections).toBe(0);
    expect(await guarded.refusal(`https://127.0.0.1:${port}/dir`)).toMatch(/loopback/);
    const open = agent([`127.0.0.1:${port}`]);
    expect((await attempt(open, `https://127.0.0.1:${port}/`)).message).not.toMatch(/loopback/);
    expect(connections).toBe(1);
    expect(await open.refusal(`https://127.0.0.1:${port}/dir`)).toBeUndefined();
    expect(await open.refusal(`http://127.0.0.1:${port}/dir`)).toMatch(/https only/);
    open.destroy();
  });

  it('refuses link-local and metadata addresses even when allowlisted', async () => {
    const listed = agent(['169.254.169.254', 'fd00:ec2::254', '[fe80::1]:443']);
    expect((await attempt(listed, 'https://169.254.169.254/latest/meta-data')).message).toMatch(/link-local/);
    expect(await listed.refusal('https://169.254.169.254/latest')).toMatch(/link-local/);
    expect(await listed.refusal('https://[fd00:ec2::254]/latest')).toMatch(/metadata/);
    expect(await listed.refusal('https://[fe80::1]/')).toMatch(/link-local/);
  });
});
