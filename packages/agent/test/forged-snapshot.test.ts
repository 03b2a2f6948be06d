import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@app/server-kit/testing';
import { applyService } from '../src/apply/apply.ts';
import { dnsmasqService, nginxService } from '../src/apply/services.ts';
import { runOnce } from '../src/run.ts';
import type { CheckinBody, Snapshot } from '../src/snapshot.ts';
import { eventually, get, sampleSnapshot, startBackend, startSandbox, type Sandbox } from './sandbox.ts';

/**
 * Stands for the manager: answers every check-in with the snapshot it was last given (304 when the
 * agent already has it) and keeps what the agent reported.
 */
class StubManager {
  readonly checkins: CheckinBody[] = [];
  private snapshot: Snapshot | undefined;
  private version = 0;
  private server: Server | undefined;
  url = '';

  serve(snapshot: Snapshot) {
    this.snapshot = snapshot;
    this.version += 1;
  }

  async start() {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        this.checkins.push(JSON.parse(body) as CheckinBody);
        const etag = `"v${this.version}"`;
        response.setHeader('etag', etag);
        if (request.headers['if-none-match'] === etag) return void response.writeHead(304).end();
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ data: this.snapshot }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    this.server?.close();
  }
}

const quiet = { info: () => undefined, error: () => undefined } as never;

describe('a forged snapshot never reaches nginx or dnsmasq: the agent refuses it and keeps what runs', () => {
  const manager = new StubManager();
  let sandbox: Sandbox;
  let backend: Awaited<ReturnType<typeof startBackend>>;
  let auth: Awaited<ReturnType<typeof startBackend>>;
  let good: Snapshot;

  beforeAll(async () => {
    await manager.start();
    backend = await startBackend('app');
    auth = await startBackend('auth');
    sandbox = await startSandbox({ MANAGER_URL: manager.url });
    good = sampleSnapshot({
      backend: backend.port,
      auth: auth.port,
      stream: await freePort(),
      echo: await freePort(),
    });
    manager.serve(good);
    const outcome = await runOnce(sandbox.config, undefined, quiet);
    expect(outcome.applied.nginx?.result).toBe('success');
    expect(outcome.applied.dnsmasq?.result).toBe('success');
  });
  afterAll(async () => {
    await sandbox?.stop();
    backend?.server.close();
    auth?.server.close();
    manager.stop();
  });

  const files = () =>
    [
      sandbox.config.nginx.httpConf,
      sandbox.config.nginx.streamConf,
      sandbox.config.dnsmasq.conf,
      sandbox.config.dnsmasq.hostsFile,
      sandbox.config.dnsmasq.dhcpHostsFile,
    ].map((path) => readFileSync(path, 'utf8'));

  it('an auth server that closes the block and opens a server of its own is refused and reported', async () => {
    const ownedPort = await freePort();
    const secondPort = await freePort();
    // Balanced for the two places the auth server is written: the injected servers pass `nginx -t`.
    const authServer =
      `http://127.0.0.1:${auth.port}/; } } server { listen 127.0.0.1:${ownedPort}; ` +
      `location / { return 200 owned; } } server { listen 127.0.0.1:${secondPort}; location /z { #`;
    const forged = structuredClone(good);
    forged.proxy.httpServices[1]!.authServer = authServer;
    forged.site.internalDomain = 'site.test\ndhcp-script=/tmp/owned';
    const before = files();
    manager.serve(forged);

    const outcome = await runOnce(sandbox.config, undefined, quiet);
    expect(outcome.applied.nginx).toMatchObject({ result: 'failure', changed: [] });
    expect(outcome.applied.nginx?.error).toContain(
      `proxy.httpServices[1].authServer ${JSON.stringify(authServer).slice(0, 60)}`,
    );
    expect(outcome.applied.dnsmasq?.result).toBe('failure');
    expect(outcome.applied.dnsmasq?.error).toContain(
      'site.internalDomain "site.test\\ndhcp-script=/tmp/owned"',
    );
    expect(files()).toEqual(before);
    // nginx keeps serving the last good configuration, and nothing listens where the forgery asked.
    const still = await eventually(
      () => get(sandbox.config.nginx.httpPort, 'app.example.test', '/hello'),
      (r) => r.status === 200,
    );
    expect(JSON.parse(still.body)).toMatchObject({ name: 'app', path: '/hello' });
    await expect(get(ownedPort, 'x')).rejects.toThrow();

    // The run's second check-in told the manager, naming the value.
    const report = manager.checkins.at(-1)!.services;
    expect(report.nginx).toMatchObject({
      lastApply: 'failure',
      message: expect.stringContaining('authServer'),
    });
    expect(report.dnsmasq).toMatchObject({
      lastApply: 'failure',
      message: expect.stringContaining('site.internalDomain'),
    });
    // Nothing changes while the manager keeps sending it: the failure is reported at each check-in.
    expect((await runOnce(sandbox.config, undefined, quiet)).changed).toBe(false);
    expect(manager.checkins.at(-1)!.services.nginx?.lastApply).toBe('failure');
  });

  const FORGERIES: [string, (snapshot: Snapshot) => void, 'nginx' | 'dnsmasq'][] = [
    [
      'proxy.httpServices[0].host',
      (s) => void (s.proxy.httpServices[0]!.host = 'app.example.test;}'),
      'nginx',
    ],
    [
      'proxy.httpServices[0].address',
      (s) => void (s.proxy.httpServices[0]!.address = '127.0.0.1$host'),
      'nginx',
    ],
    [
      'proxy.httpServices[0].port',
      (s) => void ((s.proxy.httpServices[0] as { port: unknown }).port = '80;}'),
      'nginx',
    ],
    [
      'proxy.httpServices[0].backendScheme',
      (s) => void ((s.proxy.httpServices[0] as { backendScheme: string }).backendScheme = 'http{'),
      'nginx',
    ],
    [
      'proxy.httpServices[0].serviceId',
      (s) => void ((s.proxy.httpServices[0] as { serviceId: unknown }).serviceId = '1 x'),
      'nginx',
    ],
    [
      'proxy.streamServices[0].protocol',
      (s) => void ((s.proxy.streamServices[0] as { protocol: string }).protocol = 'udp;}'),
      'nginx',
    ],
    ['proxy.externalDomains[0].name', (s) => void (s.proxy.externalDomains[0]!.name = '../etc'), 'nginx'],
    ['site.dhcpRange', (s) => void (s.site.dhcpRange = '10.99.0.100,10.99.0.200\nport=53'), 'dnsmasq'],
    ['site.gateway', (s) => void (s.site.gateway = '10.99.0.1,8.8.8.8'), 'dnsmasq'],
    ['site.dnsForwarders', (s) => void (s.site.dnsForwarders = '1.1.1.1\nserver=/#/203.0.113.66'), 'dnsmasq'],
    [
      'site.containers[0].hostname',
      (s) => void (s.site.containers[0]!.hostname = 'web1\n10.0.0.1 evil'),
      'dnsmasq',
    ],
    [
      'site.containers[0].macAddress',
      (s) => void (s.site.containers[0]!.macAddress = '02:00:0a:63:00:65,set:x'),
      'dnsmasq',
    ],
    ['site.nodes[0].name', (s) => void (s.site.nodes[0]!.name = 'pve1 evil'), 'dnsmasq'],
    ['site.dnsRecords[0].dnsName', (s) => void (s.site.dnsRecords[0]!.dnsName = '_app._tcp,evil'), 'dnsmasq'],
  ];

  it.each(FORGERIES)(
    '%s out of the grammar: refused before any file is written',
    async (path, forge, name) => {
      const forged = structuredClone(good);
      forge(forged);
      const service =
        name === 'nginx' ? nginxService(sandbox.config.nginx) : dnsmasqService(sandbox.config.dnsmasq);
      const before = files();
      const outcome = await applyService(service, forged);
      expect(outcome).toMatchObject({ result: 'failure', changed: [] });
      expect(outcome.error).toContain(path);
      expect(files()).toEqual(before);
    },
  );

  it('a certificate folder outside the path grammar is refused', async () => {
    const outcome = await applyService(
      nginxService({ ...sandbox.config.nginx, certDir: '/etc/ssl/x;}' }),
      good,
    );
    expect(outcome.result).toBe('failure');
    expect(outcome.error).toContain('CERT_DIR "/etc/ssl/x;}"');
  });
});
