import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promises as dns } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@app/server-kit/testing';
import { applyService } from '../src/apply/apply.ts';
import { dnsmasqService, nginxService } from '../src/apply/services.ts';
import type { Snapshot } from '../src/snapshot.ts';
import {
  eventually,
  get,
  sampleSnapshot,
  startBackend,
  startSandbox,
  tcpEcho,
  type Sandbox,
} from './sandbox.ts';

describe('applying snapshots to real nginx and dnsmasq', () => {
  let sandbox: Sandbox;
  let backend: Awaited<ReturnType<typeof startBackend>>;
  let auth: Awaited<ReturnType<typeof startBackend>>;
  let echoPort: number;
  let streamPort: number;
  let snapshot: Snapshot;

  beforeAll(async () => {
    sandbox = await startSandbox();
    backend = await startBackend('app');
    auth = await startBackend('auth');
    auth.server.removeAllListeners('request');
    auth.server.on('request', (req, res) => {
      res.statusCode = req.url?.startsWith('/oauth2/auth') ? 401 : 200;
      res.end(req.url?.startsWith('/oauth2/start') ? 'sign in here' : '');
    });
    const echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as AddressInfo).port;
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    streamPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));

    snapshot = sampleSnapshot({ backend: backend.port, auth: auth.port, stream: streamPort, echo: echoPort });
  });
  afterAll(async () => {
    await sandbox?.stop();
    backend?.server.close();
    auth?.server.close();
  });

  it('renders, checks and reloads nginx: HTTP by Host header, auth sub-requests, TCP streams', async () => {
    const outcome = await applyService(nginxService(sandbox.config.nginx), snapshot);
    expect(outcome).toEqual({
      result: 'success',
      changed: [sandbox.config.nginx.httpConf, sandbox.config.nginx.streamConf],
    });
    const { httpPort } = sandbox.config.nginx;

    const plain = await eventually(
      () => get(httpPort, 'app.example.test', '/hello'),
      (r) => r.status === 200,
    );
    expect(JSON.parse(plain.body)).toEqual({ name: 'app', host: 'app.example.test', path: '/hello' });

    const guarded = await get(httpPort, 'secure.example.test', '/private');
    expect(guarded.status).toBe(302);
    expect(guarded.location).toMatch(/\/oauth2\/start\?rd=http:\/\/secure\.example\.test\/private$/);
    const signIn = await get(httpPort, 'secure.example.test', '/oauth2/start?rd=x');
    expect(signIn.body).toBe('sign in here');

    const noAuthServer = await get(httpPort, 'noauth.other.test');
    expect(noAuthServer.status).toBe(503);
    expect(noAuthServer.body).toContain('no authentication server configured');

    expect(
      await eventually(
        () => tcpEcho(streamPort, 'ping'),
        (reply) => reply === 'ping',
      ),
    ).toBe('ping');
  });

  it('applies a site with HTTP services only, and one with no services at all', async () => {
    const httpOnly = { ...snapshot, proxy: { ...snapshot.proxy, streamServices: [] } };
    expect((await applyService(nginxService(sandbox.config.nginx), httpOnly)).result).toBe('success');
    const empty = { ...snapshot, proxy: { ...snapshot.proxy, httpServices: [], streamServices: [] } };
    expect((await applyService(nginxService(sandbox.config.nginx), empty)).result).toBe('success');
    expect((await applyService(nginxService(sandbox.config.nginx), snapshot)).result).toBe('success');
  });

  it('applies nothing when nothing changed', async () => {
    const outcome = await applyService(nginxService(sandbox.config.nginx), snapshot);
    expect(outcome).toEqual({ result: 'success', changed: [] });
  });

  it('rolls back a configuration nginx rejects: the old one keeps serving', async () => {
    // A broken certificate for a new domain: `nginx -t` refuses it.
    mkdirSync(join(sandbox.config.nginx.certDir, 'broken.test'), { recursive: true });
    writeFileSync(join(sandbox.config.nginx.certDir, 'broken.test', 'fullchain.pem'), 'not a certificate');
    writeFileSync(join(sandbox.config.nginx.certDir, 'broken.test', 'privkey.pem'), 'not a key');
    const before = readFileSync(sandbox.config.nginx.httpConf, 'utf8');
    const broken: Snapshot = {
      ...snapshot,
      proxy: {
        ...snapshot.proxy,
        httpServices: [
          ...snapshot.proxy.httpServices,
          {
            serviceId: 9,
            host: 'new.broken.test',
            domain: 'broken.test',
            backendScheme: 'http',
            address: '127.0.0.1',
            port: backend.port,
            authRequired: false,
            authServer: null,
          },
        ],
      },
    };
    const outcome = await applyService(nginxService(sandbox.config.nginx), broken);
    expect(outcome.result).toBe('failure');
    expect(outcome.error).toMatch(/certificate|PEM/i);
    expect(readFileSync(sandbox.config.nginx.httpConf, 'utf8')).toBe(before);
    const still = await get(sandbox.config.nginx.httpPort, 'app.example.test');
    expect(still.status).toBe(200);
  });

  it('reports a reload nginx refuses (a port another process holds) and keeps the old configuration', async () => {
    // `nginx -t` opens no sockets, so it passes; the running nginx fails to bind when it reloads.
    const takenPort = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(takenPort, '127.0.0.1', resolve));
    const agentFiles = () =>
      [sandbox.config.nginx.httpConf, sandbox.config.nginx.streamConf].map((file) =>
        readFileSync(file, 'utf8'),
      );
    const before = agentFiles();
    const blocked = structuredClone(snapshot);
    blocked.proxy.streamServices.push({
      serviceId: 6,
      protocol: 'tcp',
      externalPort: takenPort,
      address: '127.0.0.1',
      port: echoPort,
    });
    try {
      const outcome = await applyService(nginxService(sandbox.config.nginx), blocked);
      expect(outcome.result).toBe('failure');
      expect(outcome.error).toMatch(
        new RegExp(`bind\\(\\) to \\S*:${takenPort} failed .*Address already in use`),
      );
    } finally {
      taken.close();
    }
    expect(agentFiles()).toEqual(before);
    expect((await get(sandbox.config.nginx.httpPort, 'app.example.test')).status).toBe(200);
    expect(await tcpEcho(streamPort, 'still')).toBe('still');
  });

  it('configures dnsmasq: A records of containers, SRV records, DHCP reservations', async () => {
    const outcome = await applyService(dnsmasqService(sandbox.config.dnsmasq), snapshot);
    expect(outcome.result).toBe('success');
    expect(readFileSync(sandbox.config.dnsmasq.dhcpHostsFile, 'utf8')).toBe(
      '02:00:0a:63:00:65,10.99.0.101,web1\n',
    );
    const resolver = new dns.Resolver();
    resolver.setServers([`127.0.0.1:${sandbox.dnsPort}`]);
    expect(
      await eventually(
        () => resolver.resolve4('web1.site.test'),
        (a) => a.length > 0,
      ),
    ).toEqual(['10.99.0.101']);
    expect(await resolver.resolve4('pve1.site.test')).toEqual(['10.99.0.2']);
    // Node.js 22 and later add `type: 'SRV'` to each record.
    expect(await resolver.resolveSrv('_app._tcp.site.test')).toMatchObject([
      { name: 'web1.site.test', port: 8080, priority: 0, weight: 0 },
    ]);

    // A new container changes only the host files: a reload (SIGHUP) is enough.
    const more = structuredClone(snapshot);
    more.site.containers.push({
      id: 2,
      hostname: 'web2',
      ipv4Address: '10.99.0.102',
      macAddress: '02:00:0a:63:00:66',
    });
    const reload = await applyService(dnsmasqService(sandbox.config.dnsmasq), more);
    expect(reload.changed).toEqual([sandbox.config.dnsmasq.hostsFile, sandbox.config.dnsmasq.dhcpHostsFile]);
    expect(
      await eventually(
        () => resolver.resolve4('web2.site.test'),
        (a) => a.length > 0,
      ),
    ).toEqual(['10.99.0.102']);
  });

  it('leaves the upstream servers to the host when the site names no DNS forwarders', async () => {
    const none = structuredClone(snapshot);
    none.site.dnsForwarders = '';
    const outcome = await applyService(dnsmasqService(sandbox.config.dnsmasq), none);
    expect(outcome.result).toBe('success');
    const conf = readFileSync(sandbox.config.dnsmasq.conf, 'utf8');
    expect(conf).not.toMatch(/^server=/m);
    expect(conf).toMatch(/^domain=site\.test$/m);
    await applyService(dnsmasqService(sandbox.config.dnsmasq), snapshot);
  });

  it('rolls back dnsmasq settings it refuses', async () => {
    const bad = structuredClone(snapshot);
    bad.site.dhcpRange = 'everything'; // not a range
    const before = readFileSync(sandbox.config.dnsmasq.conf, 'utf8');
    const outcome = await applyService(dnsmasqService(sandbox.config.dnsmasq), bad);
    expect(outcome.result).toBe('failure');
    expect(readFileSync(sandbox.config.dnsmasq.conf, 'utf8')).toBe(before);
  });
});
