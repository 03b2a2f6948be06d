import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryFake } from '@app/fakes';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';

/**
 * Image references are chosen by any signed-in user: the manager must not become their way into the
 * loopback, private, link-local or metadata addresses around it (SSRF), whatever the reference, the
 * registry's redirects or its token realm say — unless an administrator allowlisted the registry.
 */
describe('image lookups reach only public registries and allowlisted ones', () => {
  let test: TestManager;
  let registry: RegistryFake;
  /** Another HTTP server on loopback, where a hostile registry would like the manager to go. */
  let elsewhere: RegistryFake;
  let admin: ManagerClient;
  let alice: ManagerClient;
  let base: string;

  beforeAll(async () => {
    registry = await new RegistryFake().start();
    registry.addImage('acme/web', '1', { config: { ExposedPorts: { '80/tcp': {} } } });
    elsewhere = await new RegistryFake({ auth: { mode: 'none' } }).start();
    test = await startFleetManager({ REGISTRY_TIMEOUT_MS: '3000' });
    admin = await adminClient(test);
    alice = await userClient(test, admin, 'alice');
    const siteId = (await admin.post('/sites', siteInput())).body.data.id as number;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    base = `/sites/${siteId}/containers/metadata`;
  });
  afterAll(async () => {
    await test.close();
    await Promise.all([registry.stop(), elsewhere.stop()]);
  });

  const lookup = (image: string) => alice.get(`${base}?image=${encodeURIComponent(image)}&arch=amd64`);

  /** The one answer every refused or unreachable registry gets. */
  async function refusal(): Promise<string> {
    const answer = await lookup('169.254.169.254/acme/web:1');
    expect(answer.status, answer.text).toBe(502);
    expect(answer.body.error.code).toBe('registry_error');
    return answer.body.error.message as string;
  }

  async function expectRefused(image: string, message: string) {
    const answer = await lookup(image);
    expect(answer.status, `${image}: ${answer.text}`).toBe(502);
    expect(answer.body.error, image).toEqual({ code: 'registry_error', message });
  }

  it('refuses loopback, private, CGNAT, link-local and metadata addresses, names that resolve to them too, with one answer', async () => {
    const message = await refusal();
    for (const image of [
      `${registry.host}/acme/web:1`,
      `localhost:${registry.port}/acme/web:1`,
      `[::1]:${registry.port}/acme/web:1`,
      `[::ffff:127.0.0.1]:${registry.port}/acme/web:1`,
      `0.0.0.0:${registry.port}/acme/web:1`,
      '10.1.2.3/acme/web:1',
      '100.64.0.1/acme/web:1',
      '[fd00:ec2::254]/acme/web:1',
    ]) {
      await expectRefused(image, message);
    }
    expect(message).not.toMatch(/ECONN|ENOTFOUND|timed out|within|127\.0\.0\.1|169\.254/);
    expect(registry.requests).toEqual([]);
  });

  it('a container cannot be made from a registry the manager may not reach: its node would pull from there', async () => {
    const create = (hostname: string, template: string) =>
      alice.post(base.replace('/metadata', ''), { hostname, template });
    for (const template of [
      `${registry.host}/acme/web:1`,
      `localhost:${registry.port}/acme/web:1`,
      '10.1.2.3:5000/acme/web:1',
      '[fd00::1]/acme/web:1',
    ]) {
      const refused = await create('pull1', template);
      expect(refused.status, `${template}: ${refused.text}`).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'invalid_request',
        fields: { template: expect.stringMatching(/allowlist/) },
      });
    }
    expect((await alice.get(base.replace('/metadata', ''))).body.data).toEqual([]);
    for (const [hostname, template] of [
      ['hub1', 'debian:12'],
      ['tmpl1', 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst'],
    ] as const) {
      const created = await create(hostname, template);
      expect(created.status, created.text).toBe(201);
      expect(await jobEnds(alice, created.body.data.jobId)).toBe('success');
    }
  });

  it('reaches an allowlisted registry (plain HTTP too); a closed port there gets the same answer', async () => {
    const message = await refusal();
    const saved = await admin.put('/settings', { registryAllowlist: [registry.host, '127.0.0.1:1'] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.registryAllowlist).toEqual([registry.host, '127.0.0.1:1']);
    expect((await admin.get('/settings')).body.data.registryAllowlist).toEqual([
      registry.host,
      '127.0.0.1:1',
    ]);

    const allowed = await lookup(`${registry.host}/acme/web:1`);
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.data.ports).toEqual([{ port: 80, protocol: 'tcp' }]);
    const created = await alice.post(base.replace('/metadata', ''), {
      hostname: 'allowed1',
      template: `${registry.host}/acme/web:1`,
    });
    expect(created.status, created.text).toBe(201);
    // Its job reads the image too: let it finish before the registry is told to misbehave.
    expect(await jobEnds(alice, created.body.data.jobId)).toBe('success');
    // The allowlist names hosts as written: another name for the same address is not on it.
    await expectRefused(`localhost:${registry.port}/acme/web:1`, message);
    await expectRefused('127.0.0.1:1/acme/web:1', message);
  });

  it('the allowlist is for administrators, and takes host or host:port entries only', async () => {
    expect((await alice.put('/settings', { registryAllowlist: ['127.0.0.1'] })).status).toBe(403);
    const bad = await admin.put('/settings', {
      registryAllowlist: ['http://registry.example', 'two words', 'host:99999'],
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'registryAllowlist.0',
      'registryAllowlist.1',
      'registryAllowlist.2',
    ]);
  });

  it('follows no redirect from an allowlisted registry to an address it may not reach', async () => {
    const message = await refusal();
    for (const location of [
      `http://127.0.0.1:${elsewhere.port}/blob`,
      'http://10.1.2.3/blob',
      'http://169.254.169.254/latest/meta-data/',
      'ftp://registry.example/blob',
    ]) {
      registry.replyNext(1, { path: /\/blobs\//, reply: { status: 307, headers: { location } } });
      await expectRefused(`${registry.host}/acme/web:1`, message);
    }
    expect(elsewhere.requests).toEqual([]);
    // A redirect that stays where the manager may go is followed.
    registry.replyNext(1, {
      path: /\/blobs\//,
      reply: (req) => ({ status: 307, headers: { location: `${registry.url}${req.path}?moved=1` } }),
    });
    expect((await lookup(`${registry.host}/acme/web:1`)).status).toBe(200);
    expect(registry.requests.some((request) => request.query.moved === '1')).toBe(true);
  });

  it('follows a bounded number of redirects', async () => {
    const message = await refusal();
    registry.replyNext(10, {
      path: /\/blobs\//,
      reply: (req) => ({ status: 307, headers: { location: `${registry.url}${req.path}` } }),
    });
    await expectRefused(`${registry.host}/acme/web:1`, message);
    registry.clearFailures();
  });

  it('refuses a token realm on another host: it never hears of the lookup', async () => {
    const message = await refusal();
    registry.replyNext(1, {
      path: /\/manifests\//,
      reply: {
        status: 401,
        headers: {
          'www-authenticate': `Bearer realm="http://127.0.0.1:${elsewhere.port}/token",service="registry.fake"`,
        },
      },
    });
    await expectRefused(`${registry.host}/acme/web:1`, message);
    expect(elsewhere.requests).toEqual([]);
  });
});
