import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { promises as dns } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryFake } from '@app/fakes';
import { freePort } from '@app/server-kit/testing';
import { adminClient, type ManagerClient, type TestManager } from '@app/manager/testing';
import { siteInput, startFleetManager } from '@app/manager/testing/fleet';
import { jobEnds } from '@app/manager/testing/containers';
import { runOnce } from '../src/run.ts';
import { TrafficReporter } from '../src/traffic/reporter.ts';
import { eventually, get, startSandbox, tcpEcho, type Sandbox } from './sandbox.ts';

/**
 * The whole path: the manager (real, on loopback) → the agent's check-in → real nginx and dnsmasq.
 * The site's DHCP range is in 127.0.0.0/8, so the container's address is one this host answers on and
 * the "container" is a backend server listening there.
 */
describe('site agent end to end with the manager, nginx and dnsmasq', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let sandbox: Sandbox;
  let siteId: number;
  let containerId: number;
  let address: string;
  let sshPort: number;
  const servers: Server[] = [];

  beforeAll(async () => {
    // The container's one TCP service takes the range's first port: a free one below the ephemeral
    // ports, which any outgoing connection on this machine may hold when nginx binds it.
    const low = await freePort();
    test = await startFleetManager({ TRANSPORT_PORT_RANGE: `${low}-${low + 5}` });
    admin = await adminClient(test);
    siteId = (
      await admin.post(
        '/sites',
        siteInput({
          internalDomain: 'site.test',
          dhcpRange: '127.0.0.100,127.0.0.150',
          gateway: '127.0.0.1',
          dnsForwarders: '127.0.0.1',
        }),
      )
    ).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy', ipv4Address: '127.0.0.2' });

    const authPort = await freePort();
    const auth = createHttpServer((req, res) => {
      res.statusCode = req.url?.startsWith('/oauth2/auth') ? 401 : 200;
      res.end(req.url?.startsWith('/oauth2/start') ? 'sign in' : '');
    });
    await new Promise<void>((resolve) => auth.listen(authPort, '127.0.0.1', resolve));
    servers.push(auth as unknown as Server);
    const domainId = (
      await admin.post('/external-domains', {
        name: 'apps.example.test',
        siteId,
        authServer: `http://127.0.0.1:${authPort}`,
      })
    ).body.data.id;

    const created = await admin.post(`/sites/${siteId}/containers`, {
      hostname: 'web1',
      template: 'nginx:latest',
      services: {
        web: { type: 'http', internalPort: 8080, externalHostname: 'web1', externalDomainId: domainId },
        secure: {
          type: 'http',
          internalPort: 8080,
          externalHostname: 'secure',
          externalDomainId: domainId,
          authRequired: true,
        },
        ssh: { type: 'tcp', internalPort: 2222 },
        ldap: { type: 'srv', internalPort: 389, dnsName: '_ldap._tcp' },
      },
    });
    expect(created.status).toBe(201);
    containerId = created.body.data.containerId;
    expect(await jobEnds(admin, created.body.data.jobId)).toBe('success');
    const container = (await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data;
    address = container.ipv4Address;
    sshPort =
      container.sshPort ??
      container.services.find((s: { type: string }) => s.type === 'transport').transportService.externalPort;

    // The "container": an HTTP server and an echo server on its address.
    const web = createHttpServer((req, res) => res.end(`hello from web1 (${req.headers.host})`));
    await new Promise<void>((resolve) => web.listen(8080, address, resolve));
    const echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(2222, address, resolve));
    servers.push(web as unknown as Server, echo);

    sandbox = await startSandbox({ MANAGER_URL: test.baseUrl, SITE_ID: String(siteId) });
  });
  afterAll(async () => {
    await sandbox?.stop();
    for (const server of servers) server.close();
    await test?.close();
  });

  it('applies the snapshot: HTTP by host name, auth redirect, TCP stream, DNS A and SRV records', async () => {
    const outcome = await runOnce(sandbox.config, undefined, {
      info: () => undefined,
      error: () => undefined,
    } as never);
    expect(outcome.changed).toBe(true);
    expect(outcome.applied.nginx).toMatchObject({ result: 'success' });
    expect(outcome.applied.dnsmasq).toMatchObject({ result: 'success' });
    const { httpPort } = sandbox.config.nginx;

    const web = await eventually(
      () => get(httpPort, 'web1.apps.example.test'),
      (r) => r.status === 200,
    );
    expect(web.body).toBe('hello from web1 (web1.apps.example.test)');
    const guarded = await get(httpPort, 'secure.apps.example.test', '/admin');
    expect(guarded.status).toBe(302);
    expect(guarded.location).toMatch(/\/oauth2\/start\?rd=http:\/\/secure\.apps\.example\.test\/admin$/);
    expect(
      await eventually(
        () => tcpEcho(sshPort, 'ssh?'),
        (reply) => reply === 'ssh?',
      ),
    ).toBe('ssh?');

    const resolver = new dns.Resolver();
    resolver.setServers([`127.0.0.1:${sandbox.dnsPort}`]);
    expect(
      await eventually(
        () => resolver.resolve4('web1.site.test'),
        (a) => a.length > 0,
      ),
    ).toEqual([address]);
    // Node.js 22 and later add `type: 'SRV'` to each record.
    expect(await resolver.resolveSrv('_ldap._tcp.site.test')).toMatchObject([
      { name: 'web1.site.test', port: 389, priority: 0, weight: 0 },
    ]);

    // The second check-in of the run reported the results; nothing changed since: 304, nothing to do.
    const agents = (await admin.get('/agents')).body.data;
    expect(agents[0].services.nginx.lastApply).toBe('success');
    expect(agents[0].services.dnsmasq.lastApply).toBe('success');
    expect((await runOnce(sandbox.config)).changed).toBe(false);
  });

  it('reports traffic: requests through nginx after a quiet spell set the service last access', async () => {
    const reporter = new TrafficReporter(sandbox.config, undefined, { warn: () => undefined });
    await reporter.listen();
    try {
      const lastAccess = async () =>
        (await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data.lastAccessedAt;
      expect(await lastAccess()).toBeNull();
      // nginx drops the log line that finds the reporter's port closed (it was not listening during the
      // first test's requests) and reconnects for the next one: keep browsing until it shows.
      await expect
        .poll(
          async () => (await get(sandbox.config.nginx.httpPort, 'web1.apps.example.test')) && lastAccess(),
          { timeout: 10_000 },
        )
        .not.toBeNull();
    } finally {
      reporter.close();
    }
  });

  it('prepares a volume: the real agent makes its folder under the node storage and the create job goes on', async () => {
    const registry = await new RegistryFake().start();
    try {
      registry.addImage('acme/db', '1', { config: { Volumes: { '/var/lib/db': {} } } });
      // A registry on loopback is reached only when an administrator allowlists it.
      expect((await admin.put('/settings', { registryAllowlist: [registry.host] })).status).toBe(200);
      const storage = join(sandbox.dir, 'volumes');
      const node = (await admin.get(`/sites/${siteId}/nodes`)).body.data[0];
      const updated = await admin.put(`/sites/${siteId}/nodes/${node.id}`, {
        name: 'sim1',
        ipv4Address: '127.0.0.2',
        volumeStorage: storage,
      });
      expect(updated.status).toBe(200);
      const created = await admin.post(`/sites/${siteId}/containers`, {
        hostname: 'db1',
        template: `${registry.host}/acme/db:1`,
      });
      expect(created.status).toBe(201);
      const jobId = created.body.data.jobId as number;
      // The job gives the volume its host path, then waits for the agent.
      await eventually(
        async () => (await admin.get(`/jobs/${jobId}/status`)).body.data as Array<{ output: string }>,
        (rows) => rows.some((row) => row.output.startsWith('Waiting for the site agent')),
      );

      await runOnce(sandbox.config, undefined, { info: () => undefined, error: () => undefined } as never);
      // Folders are named by the owner's uidNumber (the first account's is 2000), never by a reusable name.
      const hostPath = join(storage, String(siteId), '2000', 'db1', 'var-lib-db');
      expect(statSync(hostPath).isDirectory()).toBe(true);
      expect(await jobEnds(admin, jobId)).toBe('success');
      const instance = await test.manager.database.db
        .selectFrom('dummy_instances')
        .select('config')
        .where('hostname', '=', 'db1')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(instance.config).mounts).toEqual([
        { hostPath, mountPath: '/var/lib/db', readOnly: false },
      ]);
    } finally {
      await registry.stop();
    }
  });

  it('rolls back a snapshot nginx rejects, keeps serving, and reports the failure at the next check-in', async () => {
    // The domain's certificate is damaged on this host: the next configuration that uses it fails `nginx -t`.
    mkdirSync(join(sandbox.config.nginx.certDir, 'apps.example.test'), { recursive: true });
    writeFileSync(join(sandbox.config.nginx.certDir, 'apps.example.test', 'fullchain.pem'), 'damaged');
    writeFileSync(join(sandbox.config.nginx.certDir, 'apps.example.test', 'privkey.pem'), 'damaged');
    const changed = await admin.put(`/sites/${siteId}/containers/${containerId}`, {
      restart: false,
      services: { extra: { type: 'tcp', internalPort: 2223 } },
      environmentVars: [],
    });
    expect(changed.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the snapshot cache settles after a write

    const outcome = await runOnce(sandbox.config, undefined, {
      info: () => undefined,
      error: () => undefined,
    } as never);
    expect(outcome.applied.nginx?.result).toBe('failure');
    expect(outcome.applied.nginx?.error).toMatch(/certificate|PEM|ssl/i);
    const still = await get(sandbox.config.nginx.httpPort, 'web1.apps.example.test');
    expect(still.body).toBe('hello from web1 (web1.apps.example.test)');
    const agents = (await admin.get('/agents')).body.data;
    expect(agents[0].services.nginx.lastApply).toBe('failure');
  });
});
