import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudflareFake, DockerFake, RegistryFake } from '@app/fakes';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { addDomain, jobEnds } from './container-helpers.ts';

const CF_TOKEN = 'cf-test-token';

describe('image metadata, cross-site DNS, resource requests', () => {
  let test: TestManager;
  let registry: RegistryFake;
  let cloudflare: CloudflareFake;
  let admin: ManagerClient;
  let alice: ManagerClient;
  let bob: ManagerClient;
  let siteId: number;
  let otherSite: number;
  let base: string;

  beforeAll(async () => {
    registry = await new RegistryFake({ auth: { privateRepositories: ['team/secret'] } }).start();
    cloudflare = await new CloudflareFake({ tokens: [CF_TOKEN], zones: ['other.example.net'] }).start();
    test = await startFleetManager({
      DNS_PROVIDER_API_URL: `${cloudflare.url}/client/v4`,
      REGISTRY_MIRROR: registry.url,
    });
    admin = await adminClient(test);
    alice = await userClient(test, admin, 'alice');
    bob = await userClient(test, admin, 'bob');
    siteId = (await admin.post('/sites', siteInput({ externalIp: '198.51.100.7' }))).body.data.id;
    otherSite = (await admin.post('/sites', siteInput({ name: 'Other' }))).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    base = `/sites/${siteId}/containers`;
  });
  afterAll(async () => {
    await test.close();
    await registry.stop();
    await cloudflare.stop();
  });

  describe('GET …/containers/metadata', () => {
    const labels = {
      'org.mieweb.opensource-server.services.http.port': '8080',
      'org.mieweb.opensource-server.services.http.admin.port': '9090',
      'org.mieweb.opensource-server.services.http.admin.hostnameSuffix': '-admin',
      'org.mieweb.opensource-server.services.http.admin.requireAuth': 'true',
    };

    it('reads ports, labels, entrypoint + cmd and env behind a bearer-token challenge (explicit loopback host)', async () => {
      registry.addImage('acme/web', '1.0', {
        config: {
          ExposedPorts: { '8080/tcp': {}, '53/udp': {} },
          Env: ['PATH=/usr/bin', 'APP_MODE=prod'],
          Entrypoint: ['/entry.sh'],
          Cmd: ['serve', '--port', '8080'],
          Labels: labels,
        },
      });
      const response = await alice.get(
        `${base}/metadata?image=${encodeURIComponent(`${registry.host}/acme/web:1.0`)}`,
      );
      expect(response.status, response.text).toBe(200);
      expect(response.body.data).toEqual({
        ports: [
          { port: 53, protocol: 'udp' },
          { port: 8080, protocol: 'tcp' },
        ],
        httpServices: [
          { port: 8080, hostnameSuffix: '', requireAuth: false },
          { port: 9090, hostnameSuffix: '-admin', requireAuth: true },
        ],
        entrypoint: '/entry.sh serve --port 8080',
        env: [
          { key: 'PATH', value: '/usr/bin' },
          { key: 'APP_MODE', value: 'prod' },
        ],
      });
      expect(registry.requests.some((r) => r.path === '/token')).toBe(true);
    });

    it('chooses the architecture in Docker manifest lists and OCI indexes (amd64 default)', async () => {
      for (const format of ['docker', 'oci'] as const) {
        registry.addImage('multi/app', format, {
          format,
          platforms: [
            { architecture: 'arm64', os: 'linux' },
            { architecture: 'amd64', os: 'linux' },
          ],
          config: { Cmd: ['run'], Env: [`FORMAT=${format}`] },
        });
        const image = encodeURIComponent(`${registry.host}/multi/app:${format}`);
        const amd = await alice.get(`${base}/metadata?image=${image}`);
        expect(amd.status, amd.text).toBe(200);
        expect(amd.body.data.entrypoint).toBe('run');
        expect((await alice.get(`${base}/metadata?image=${image}&arch=arm64`)).status).toBe(200);
        const s390 = await alice.get(`${base}/metadata?image=${image}&arch=s390x`);
        expect(s390.status).toBe(404);
        expect(s390.body.error.code).toBe('image_not_found');
      }
    });

    describe('without ?arch=: the architecture of the node a create on the site would choose', () => {
      let arm: DockerFake;
      let image: string;
      const portsOf = async (site: number, query = '') => {
        const response = await alice.get(`/sites/${site}/containers/metadata?image=${image}${query}`);
        expect(response.status, response.text).toBe(200);
        return (response.body.data.ports as Array<{ port: number }>).map((entry) => entry.port);
      };
      const siteWith = async (name: string, nodes: Array<Record<string, unknown>>) => {
        const site = (await admin.post('/sites', siteInput({ name }))).body.data.id as number;
        for (const node of nodes) {
          const response = await admin.post(`/sites/${site}/nodes`, node);
          expect(response.status, response.text).toBe(201);
        }
        return site;
      };

      beforeAll(async () => {
        arm = await new DockerFake({ architecture: 'aarch64' }).start();
        // The two images of the list differ: the port each exposes tells which one was read.
        registry.addImage('multi/split', '1', {
          platforms: [
            { architecture: 'amd64', os: 'linux', config: { ExposedPorts: { '80/tcp': {} } } },
            {
              architecture: 'arm64',
              os: 'linux',
              variant: 'v8',
              config: { ExposedPorts: { '8080/tcp': {} } },
            },
          ],
        });
        image = encodeURIComponent(`${registry.host}/multi/split:1`);
      });
      afterAll(() => arm.stop());

      it('an engine whose /info says aarch64 gets the arm64 image; ?arch= still overrides', async () => {
        const site = await siteWith('Arm', [
          { name: 'arm1', nodeType: 'engine', apiUrl: `tcp://127.0.0.1:${arm.port}` },
        ]);
        expect(await portsOf(site)).toEqual([8080]);
        expect(arm.requests.some((request) => request.path.endsWith('/info'))).toBe(true);
        expect(await portsOf(site, '&arch=amd64')).toEqual([80]);
        expect(await portsOf(site, `&arch=${encodeURIComponent('arm64/v8')}`)).toEqual([8080]);
        expect(await portsOf(siteId)).toEqual([80]); // a dummy node is amd64
      });

      it('a node that cannot be asked gives amd64, not an error', async () => {
        const site = await siteWith('Far', [
          { name: 'far1', nodeType: 'engine', apiUrl: 'tcp://127.0.0.1:1' },
        ]);
        expect(await portsOf(site)).toEqual([80]);
        const empty = await siteWith('Empty', []);
        expect(await portsOf(empty)).toEqual([80]);
      });

      it('follows the choice a create makes now: the least-loaded node, ties to the oldest', async () => {
        const site = await siteWith('Mixed', [
          { name: 'mixed-arm', nodeType: 'engine', apiUrl: `tcp://127.0.0.1:${arm.port}` },
          { name: 'mixed-sim', nodeType: 'dummy' },
        ]);
        expect(await portsOf(site)).toEqual([8080]);
        const template = `${registry.host}/multi/split:1`;
        arm.addRemoteImage(template);
        const created = await admin.post(`/sites/${site}/containers`, { hostname: 'mixed1', template });
        expect(created.status, created.text).toBe(201);
        expect(await jobEnds(admin, created.body.data.jobId)).toBe('success');
        expect(arm.store.containers.size).toBe(1);
        expect(await portsOf(site)).toEqual([80]);
      });
    });

    it('uses REGISTRY_MIRROR for Docker Hub names (library/ prefix)', async () => {
      registry.addImage('library/nginx', 'latest', { config: { ExposedPorts: { '80/tcp': {} } } });
      const response = await alice.get(`${base}/metadata?image=nginx`);
      expect(response.status, response.text).toBe(200);
      expect(response.body.data.ports).toEqual([{ port: 80, protocol: 'tcp' }]);
    });

    it('answers 400 invalid_request, 404 image_not_found and 502 registry_error', async () => {
      expect((await alice.get(`${base}/metadata`)).body.error.code).toBe('invalid_request');
      expect(
        (await alice.get(`${base}/metadata?image=${encodeURIComponent('UPPER/Case::x')}`)).body.error.code,
      ).toBe('invalid_request');
      for (const image of [
        `${registry.host}/acme/web:nope`,
        `${registry.host}/acme/none:1`,
        `${registry.host}/team/secret:1`,
      ]) {
        const response = await alice.get(`${base}/metadata?image=${encodeURIComponent(image)}`);
        expect(response.status, image).toBe(404);
        expect(response.body.error.code).toBe('image_not_found');
      }
      registry.failNext(1, { status: 500, path: /manifests/ });
      const broken = await alice.get(
        `${base}/metadata?image=${encodeURIComponent(`${registry.host}/acme/web:1.0`)}`,
      );
      expect(broken.status).toBe(502);
      expect(broken.body.error.code).toBe('registry_error');
      const closed = await alice.get(
        `${base}/metadata?image=${encodeURIComponent('127.0.0.1:1/acme/web:1')}`,
      );
      expect(closed.status).toBe(502);
      expect(closed.body.error.code).toBe('registry_error');
      expect((await alice.get(`/sites/9999/containers/metadata?image=nginx`)).body.error.code).toBe(
        'site_not_found',
      );
    });
  });

  describe('cross-site HTTP services', () => {
    let foreignDomain: number;
    let brokenDomain: number;

    beforeAll(async () => {
      foreignDomain = await addDomain(test, {
        name: 'other.example.net',
        siteId: otherSite,
        apiKey: CF_TOKEN,
      });
      brokenDomain = await addDomain(test, {
        name: 'nozone.example.net',
        siteId: otherSite,
        apiKey: CF_TOKEN,
      });
      await addDomain(test, { name: 'home.example.com', siteId });
    });

    it('creates the A record (site externalIp) when the container is created, removes it on delete', async () => {
      const created = await alice.post(base, {
        hostname: 'xsite1',
        template: 'debian:12',
        services: {
          web: {
            type: 'http',
            internalPort: 80,
            externalHostname: 'xsite1',
            externalDomainId: foreignDomain,
          },
        },
      });
      expect(created.status).toBe(201);
      expect(await jobEnds(alice, created.body.data.jobId)).toBe('success');
      expect(cloudflare.recordsOf('other.example.net')).toEqual([
        expect.objectContaining({ type: 'A', name: 'xsite1.other.example.net', content: '198.51.100.7' }),
      ]);
      const shown = (await alice.get(`${base}/${created.body.data.containerId}`)).body.data;
      expect(shown.httpEntries).toEqual([{ port: 80, externalUrl: 'https://xsite1.other.example.net' }]);
      expect(shown.sshHost).toBeNull(); // no SSH service

      // PUT: removing the service removes the record; adding one on a domain without zone warns.
      const serviceId = shown.services[0].id;
      const updated = await alice.put(`${base}/${shown.id}`, {
        services: {
          old: { id: serviceId, deleted: true },
          bad: { type: 'http', internalPort: 81, externalHostname: 'xsite1', externalDomainId: brokenDomain },
          good: {
            type: 'http',
            internalPort: 82,
            externalHostname: 'xsite1b',
            externalDomainId: foreignDomain,
          },
        },
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body.data.dnsWarnings).toEqual([expect.stringContaining('xsite1.nozone.example.net')]);
      expect(cloudflare.recordsOf('other.example.net').map((r) => r.name)).toEqual([
        'xsite1b.other.example.net',
      ]);
      // The write was not lost.
      expect((await alice.get(`${base}/${shown.id}`)).body.data.services).toHaveLength(2);

      cloudflare.failNext(1, { status: 500 });
      const deleted = await alice.delete(`${base}/${shown.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body.data.deleted).toBe(true);
      // The injected 500 hit the first lookup (nozone); the other record is removed.
      expect(deleted.body.data.dnsWarnings).toEqual([expect.stringContaining('500')]);
      expect(cloudflare.recordsOf('other.example.net')).toEqual([]);
      expect((await alice.get(`${base}/${shown.id}`)).status).toBe(404);
    });
  });

  describe('resource requests', () => {
    it('auto-approves within the defaults (system), leaves bigger ones pending, and admins review', async () => {
      const small = await alice.post('/resource-requests', {
        siteId,
        hostname: 'rr1',
        resourceType: 'cpus',
        value: 2,
      });
      expect(small.status, small.text).toBe(201);
      expect(small.body.data).toMatchObject({
        status: 'approved',
        reviewedBy: 'system',
        username: 'alice',
        site: { id: siteId, name: 'Main' },
      });
      const big = await alice.post('/resource-requests', {
        siteId,
        hostname: 'rr1',
        resourceType: 'memory',
        value: 8192,
        comment: 'builds',
      });
      expect(big.body.data).toMatchObject({ status: 'pending', reviewedBy: null, comment: 'builds' });
      const byAdmin = await admin.post('/resource-requests', {
        siteId,
        hostname: 'adm1',
        resourceType: 'rootfs',
        value: 500,
      });
      expect(byAdmin.body.data).toMatchObject({ status: 'approved', reviewedBy: 'system' });

      expect((await alice.get('/resource-requests/count')).body.data).toEqual({ count: 1 });
      expect((await bob.get('/resource-requests/count')).body.data).toEqual({ count: 0 });
      expect((await admin.get('/resource-requests/count')).body.data).toEqual({ count: 1 });
      expect((await bob.get('/resource-requests')).body.data).toEqual([]);
      expect(
        (await alice.get('/resource-requests?status=pending')).body.data.map((r: { id: number }) => r.id),
      ).toEqual([big.body.data.id]);
      expect((await admin.get('/resource-requests?status=closed')).body.data).toHaveLength(2);
      expect((await admin.get(`/resource-requests?siteId=${otherSite}`)).body.data).toEqual([]);

      const denied = await alice.put(`/resource-requests/${big.body.data.id}/approve`, {});
      expect(denied.status).toBe(403);
      const effectiveBefore = await alice.get(`/resource-requests/effective/${siteId}/rr1/alice`);
      expect(effectiveBefore.body.data).toEqual({ cpus: 2, memory: 4096, swap: 0, rootfs: 50 });
      expect((await bob.get(`/resource-requests/effective/${siteId}/rr1/alice`)).status).toBe(403);

      // A container of that hostname is sized by the approved values...
      const created = await alice.post(base, { hostname: 'rr1', template: 'debian:12' });
      await jobEnds(alice, created.body.data.jobId);
      const containerId = (await alice.get(`${base}/${created.body.data.containerId}`)).body.data.containerId;
      const config = async () =>
        JSON.parse(
          (
            await test.manager.database.db
              .selectFrom('dummy_instances')
              .select('config')
              .where('vmid', '=', Number(containerId))
              .executeTakeFirstOrThrow()
          ).config,
        ).resources;
      expect(await config()).toEqual({ cores: 2, memoryMb: 4096, swapMb: 0, rootfsGb: 50 });

      // ...and an approval is applied to it through a job.
      const approved = await admin.put(`/resource-requests/${big.body.data.id}/approve`, {
        adminComment: 'ok',
      });
      expect(approved.status).toBe(200);
      expect(approved.body.data).toMatchObject({
        status: 'approved',
        reviewedBy: 'admin',
        adminComment: 'ok',
        jobId: expect.any(Number),
      });
      expect(await jobEnds(admin, approved.body.data.jobId)).toBe('success');
      expect(await config()).toMatchObject({ cores: 2, memoryMb: 8192 });
      const again = await admin.put(`/resource-requests/${big.body.data.id}/deny`, {});
      expect(again.status).toBe(409);
      expect((await admin.put('/resource-requests/99999/deny', {})).status).toBe(404);

      const toDeny = await alice.post('/resource-requests', {
        siteId,
        hostname: 'rr1',
        resourceType: 'swap',
        value: 1024,
      });
      const deniedOne = await admin.put(`/resource-requests/${toDeny.body.data.id}/deny`, {
        adminComment: 'no',
      });
      expect(deniedOne.body.data).toMatchObject({ status: 'denied', jobId: null });
      expect((await alice.get(`/resource-requests/effective/${siteId}/rr1/alice`)).body.data.swap).toBe(0);
    });

    it('validates requests and keeps users to their own containers', async () => {
      const bad = await alice.post('/resource-requests', {
        siteId,
        hostname: 'rr1',
        resourceType: 'gpus',
        value: 1,
      });
      expect(bad.status).toBe(422);
      expect(bad.body.error.fields).toHaveProperty('resourceType');
      expect(
        (await alice.post('/resource-requests', { siteId, hostname: 'rr1', resourceType: 'cpus', value: 0 }))
          .status,
      ).toBe(422);
      expect(
        (
          await alice.post('/resource-requests', {
            siteId: 9999,
            hostname: 'x',
            resourceType: 'cpus',
            value: 1,
          })
        ).body.error.code,
      ).toBe('site_not_found');
      expect(
        (await bob.post('/resource-requests', { siteId, hostname: 'rr1', resourceType: 'cpus', value: 1 }))
          .status,
      ).toBe(403);
    });
  });
});
