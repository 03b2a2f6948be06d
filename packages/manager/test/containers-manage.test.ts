import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagerClient } from './helpers.ts';
import { addDomain, dummySite, jobEnds, type DummySite } from './container-helpers.ts';

describe('containers: update, delete, collaborators, access', () => {
  let { test, admin, owner, collab, other, siteId } = {} as DummySite;
  let domainId: number;
  let base: string;

  const create = async (client: ManagerClient, body: Record<string, unknown>) => {
    const response = await client.post(base, { template: 'debian:12', ...body });
    expect(response.status, response.text).toBe(201);
    await jobEnds(client, response.body.data.jobId);
    return response.body.data.containerId as number;
  };

  beforeAll(async () => {
    ({ test, admin, owner, collab, other, siteId } = await dummySite());
    domainId = await addDomain(test, { name: 'apps.example.com', siteId, authServer: 'http://auth' });
    await admin.put('/settings', { defaultContainerEnvVars: [{ key: 'TZ', value: 'UTC', description: '' }] });
    base = `/sites/${siteId}/containers`;
  });
  afterAll(() => test.close());

  it('authorises every container route for owner, collaborator, other user and admin', async () => {
    const id = await create(owner, { hostname: 'authz1', collaborators: ['colin'] });
    const url = `${base}/${id}`;
    const expectations: Array<[string, (c: ManagerClient) => Promise<{ status: number }>, number[]]> = [
      // [route, call, statuses for owner, collaborator, other, admin]
      ['GET container', (c) => c.get(url), [200, 200, 404, 200]],
      ['GET collaborators', (c) => c.get(`${url}/collaborators`), [200, 200, 404, 200]],
      [
        'POST collaborators',
        (c) => c.post(`${url}/collaborators`, { username: 'colin' }),
        [201, 403, 404, 201],
      ],
      ['DELETE collaborator', (c) => c.delete(`${url}/collaborators/nobody`), [404, 403, 404, 404]],
      ['PUT container', (c) => c.put(url, { restart: true }), [200, 403, 404, 200]],
    ];
    const clients = [owner, collab, other, admin];
    for (const [name, call, statuses] of expectations) {
      const got = [];
      for (const client of clients) got.push((await call(client)).status);
      expect(got, name).toEqual(statuses);
    }
    const list = async (c: ManagerClient) =>
      ((await c.get(base)).body.data as Array<{ id: number }>).some((entry) => entry.id === id);
    expect(await Promise.all(clients.map(list))).toEqual([true, true, false, true]);
    expect((await collab.delete(url)).status).toBe(403);
    expect((await other.delete(url)).status).toBe(404);
    expect((await owner.delete(url)).status).toBe(200);
    const adminsOwn = await create(owner, { hostname: 'authz2' });
    expect((await admin.delete(`${base}/${adminsOwn}`)).status).toBe(200);
  });

  it('PUT rule 1: services are created, deleted (by {id, deleted}) and toggled', async () => {
    const id = await create(owner, {
      hostname: 'svc1',
      services: {
        web: { type: 'http', internalPort: 80, externalHostname: 'svc1', externalDomainId: domainId },
        ssh: { type: 'tcp', internalPort: 22 },
      },
    });
    const before = (await owner.get(`${base}/${id}`)).body.data;
    const web = before.services.find((s: { type: string }) => s.type === 'http');
    const ssh = before.services.find((s: { type: string }) => s.type === 'transport');
    const updated = await owner.put(`${base}/${id}`, {
      services: {
        a: { id: web.id, authRequired: true },
        b: { id: ssh.id, deleted: true },
        c: { type: 'udp', internalPort: 53 },
        d: { type: 'https', internalPort: 8443, externalHostname: 'svc1-admin', externalDomainId: domainId },
      },
      environmentVars: before.environmentVars
        ? Object.entries(before.environmentVars).map(([key, value]) => ({ key, value }))
        : [],
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data).toEqual({
      containerId: id,
      jobId: null,
      dnsWarnings: [],
      message: expect.any(String),
    });
    const after = (await owner.get(`${base}/${id}`)).body.data;
    expect(after.services.map((s: { type: string }) => s.type).sort()).toEqual(['http', 'http', 'transport']);
    expect(after.services.find((s: { id: number }) => s.id === web.id).httpService.authRequired).toBe(true);
    expect(after.services.find((s: { id: number }) => s.id === ssh.id)).toBeUndefined();
    expect(after.sshPort).toBeNull();
    expect(
      after.services.find((s: { transportService: unknown }) => s.transportService).transportService.protocol,
    ).toBe('udp');
    const admin8443 = after.services.find((s: { internalPort: number }) => s.internalPort === 8443);
    expect(admin8443.httpService.backendProtocol).toBe('https');

    const badId = await owner.put(`${base}/${id}`, { services: { x: { id: 999999, deleted: true } } });
    expect(badId.status).toBe(400);
    expect(badId.body.error.code).toBe('invalid_request');
    const badNew = await owner.put(`${base}/${id}`, { services: { x: { type: 'gopher', internalPort: 1 } } });
    expect(badNew.status).toBe(400);
    expect(badNew.body.error.code).toBe('invalid_service');
  });

  it('HTTP services carry redirect-to-HTTPS and HSTS toggles (an addition to the spec), set at creation and by PUT', async () => {
    const web = (hostname: string, redirectHttps: unknown) => ({
      type: 'http',
      internalPort: 80,
      externalHostname: hostname,
      externalDomainId: domainId,
      redirectHttps,
    });
    const id = await create(owner, { hostname: 'tls1', services: { web: web('tls1', true) } });
    const url = `${base}/${id}`;
    const toggles = async () => {
      const { httpService } = (await owner.get(url)).body.data.services[0];
      return { redirectHttps: httpService.redirectHttps, hsts: httpService.hsts };
    };
    expect(await toggles()).toEqual({ redirectHttps: true, hsts: false });
    const serviceId = (await owner.get(url)).body.data.services[0].id;

    const put = await owner.put(url, {
      services: { a: { id: serviceId, redirectHttps: false, hsts: 'on' } },
    });
    expect(put.status, put.text).toBe(200);
    expect(await toggles()).toEqual({ redirectHttps: false, hsts: true });
    // A toggle left out keeps its value.
    expect((await owner.put(url, { services: { a: { id: serviceId, authRequired: true } } })).status).toBe(
      200,
    );
    expect(await toggles()).toEqual({ redirectHttps: false, hsts: true });

    const badUpdate = await owner.put(url, { services: { a: { id: serviceId, hsts: 'maybe' } } });
    expect(badUpdate.status).toBe(400);
    expect(badUpdate.body.error.fields).toEqual({ 'services.a.hsts': 'must be true or false' });
    const badNew = await owner.post(base, {
      template: 'debian:12',
      hostname: 'tls2',
      services: { web: web('tls2', 7) },
    });
    expect(badNew.status).toBe(400);
    expect(badNew.body.error).toMatchObject({
      code: 'invalid_service',
      fields: { 'services.web': 'redirectHttps must be true or false' },
    });
  });

  it('PUT rules 2–5: environment and entrypoint are replaced, restart-only keeps them, jobs only when needed', async () => {
    const id = await create(owner, {
      hostname: 'env1',
      entrypoint: '/start',
      environmentVars: [{ key: 'A', value: '1' }],
    });
    const url = `${base}/${id}`;
    // Restart-only: nothing changes, a restart job runs.
    const restart = await owner.put(url, { restart: true });
    expect(restart.body.data.jobId).toEqual(expect.any(Number));
    expect(await jobEnds(owner, restart.body.data.jobId)).toBe('success');
    let shown = (await owner.get(url)).body.data;
    expect(shown.environmentVars).toEqual({ TZ: 'UTC', A: '1' });
    expect(shown.entrypoint).toBe('/start');

    // Same config, no restart: no job.
    const same = await owner.put(url, { environmentVars: [{ key: 'A', value: '1' }], entrypoint: '/start' });
    expect(same.body.data.jobId).toBeNull();

    // New environment: a job applies it (reconfigure + restart).
    const changed = await owner.put(url, {
      environmentVars: [{ key: 'B', value: '2' }],
      entrypoint: '/start',
    });
    expect(changed.body.data.jobId).toEqual(expect.any(Number));
    expect(await jobEnds(owner, changed.body.data.jobId)).toBe('success');
    shown = (await owner.get(url)).body.data;
    expect(shown.environmentVars).toEqual({ TZ: 'UTC', B: '2' });
    const instance = await test.manager.database.db
      .selectFrom('dummy_instances')
      .select('config')
      .where('vmid', '=', Number(shown.containerId))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(instance.config).environment).toEqual({ TZ: 'UTC', B: '2' });

    // Omitted environment and blank entrypoint: both cleared (site defaults stay).
    const cleared = await owner.put(url, { entrypoint: '  ' });
    expect(cleared.status).toBe(200);
    shown = (await owner.get(url)).body.data;
    expect(shown.environmentVars).toEqual({ TZ: 'UTC' });
    expect(shown.entrypoint).toBeNull();
    await jobEnds(owner, cleared.body.data.jobId);
  });

  it('PUT with restart false saves environment changes without a restart; the next restart applies them', async () => {
    const id = await create(owner, { hostname: 'later1', environmentVars: [{ key: 'A', value: '1' }] });
    const url = `${base}/${id}`;
    const instanceEnvironment = async () => {
      const vmid = Number((await owner.get(url)).body.data.containerId);
      const row = await test.manager.database.db
        .selectFrom('dummy_instances')
        .select('config')
        .where('vmid', '=', vmid)
        .executeTakeFirstOrThrow();
      return JSON.parse(row.config).environment as Record<string, string>;
    };
    const jobsOf = async () => ((await owner.get(`${url}/jobs`)).body.data as unknown[]).length;
    const jobsBefore = await jobsOf();

    const saved = await owner.put(url, { environmentVars: [{ key: 'A', value: '2' }], restart: false });
    expect(saved.status).toBe(200);
    expect(saved.body.data.jobId).toBeNull();
    expect(saved.body.data.message).toMatch(/take effect at its next restart/);
    let shown = (await owner.get(url)).body.data;
    expect(shown.environmentVars).toEqual({ TZ: 'UTC', A: '2' });
    expect(shown.restartPending).toBe(true);
    expect(await instanceEnvironment()).toEqual({ TZ: 'UTC', A: '1' });
    expect(await jobsOf()).toBe(jobsBefore);

    // A change of services only, still without a restart: the saved changes keep waiting.
    const servicesOnly = await owner.put(url, {
      environmentVars: [{ key: 'A', value: '2' }],
      services: {
        web: { type: 'http', internalPort: 8080, externalHostname: 'later1', externalDomainId: domainId },
      },
      restart: false,
    });
    expect(servicesOnly.body.data.jobId).toBeNull();
    expect((await owner.get(url)).body.data.restartPending).toBe(true);

    // Restart alone applies what waits.
    const restart = await owner.put(url, { restart: true });
    expect(await jobEnds(owner, restart.body.data.jobId)).toBe('success');
    shown = (await owner.get(url)).body.data;
    expect(shown.restartPending).toBe(false);
    expect(await instanceEnvironment()).toEqual({ TZ: 'UTC', A: '2' });

    // restart omitted: a change is applied at once, as before.
    const now = await owner.put(url, { environmentVars: [{ key: 'A', value: '3' }] });
    expect(await jobEnds(owner, now.body.data.jobId)).toBe('success');
    expect(await instanceEnvironment()).toEqual({ TZ: 'UTC', A: '3' });
    expect((await owner.get(url)).body.data.restartPending).toBe(false);
  });

  it('PUT rule 6: only admins reassign ownership (403, 404 user_not_found)', async () => {
    const id = await create(owner, { hostname: 'own1' });
    const url = `${base}/${id}`;
    const byOwner = await owner.put(url, { username: 'oscar' });
    expect(byOwner.status).toBe(403);
    expect(byOwner.body.error.code).toBe('forbidden');
    expect((await owner.put(url, { username: 'olga', restart: false })).status).toBe(200);
    const unknown = await admin.put(url, { username: 'ghost' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('user_not_found');
    expect((await admin.put(url, { username: 'oscar' })).status).toBe(200);
    expect((await other.get(url)).body.data.owner).toBe('oscar');
    expect((await owner.get(url)).status).toBe(404);
    expect((await admin.put(`${base}/999999`, {})).status).toBe(404);
  });

  it('collaborators: add is idempotent, 409 already_owner, 404 user_not_found, remove', async () => {
    const id = await create(owner, { hostname: 'share1' });
    const url = `${base}/${id}/collaborators`;
    expect((await owner.get(url)).body.data).toEqual({ collaborators: [] });
    const added = await owner.post(url, { username: 'colin' });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({ collaborators: ['colin'] });
    expect((await owner.post(url, { username: 'colin' })).body.data).toEqual({ collaborators: ['colin'] });
    const self = await owner.post(url, { username: 'olga' });
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe('already_owner');
    const ghost = await owner.post(url, { username: 'ghost' });
    expect(ghost.status).toBe(404);
    expect(ghost.body.error.code).toBe('user_not_found');
    expect((await owner.post(url, {})).body.error.code).toBe('invalid_request');
    expect((await collab.get(url)).body.data).toEqual({ collaborators: ['colin'] });
    const removed = await owner.delete(`${url}/colin`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ collaborators: [] });
    expect((await owner.delete(`${url}/colin`)).status).toBe(404);
    expect((await collab.get(url)).status).toBe(404);
  });

  it('DELETE removes the instance first; 409 hostname_mismatch aborts and keeps everything', async () => {
    const db = test.manager.database.db;
    const id = await create(owner, { hostname: 'del1' });
    const record = await db
      .selectFrom('containers')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('dummy_instances')
      .set({ hostname: 'someone-else' })
      .where('vmid', '=', Number(record.container_id))
      .execute();
    const mismatch = await owner.delete(`${base}/${id}`);
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.error.code).toBe('hostname_mismatch');
    expect((await owner.get(`${base}/${id}`)).status).toBe(200);

    await db
      .updateTable('dummy_instances')
      .set({ hostname: 'del1' })
      .where('vmid', '=', Number(record.container_id))
      .execute();
    const deleted = await owner.delete(`${base}/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ deleted: true, dnsWarnings: [], keptVolumes: [] });
    expect((await owner.get(`${base}/${id}`)).status).toBe(404);
    const instance = await db
      .selectFrom('dummy_instances')
      .selectAll()
      .where('vmid', '=', Number(record.container_id))
      .executeTakeFirst();
    expect(instance).toBeUndefined();
    expect(await db.selectFrom('services').selectAll().where('container_id', '=', id).execute()).toEqual([]);
  });

  it('DELETE keeps the record when the node cannot be asked (502), and deletes a never-provisioned one', async () => {
    const db = test.manager.database.db;
    const id = await create(owner, { hostname: 'del2' });
    const pve = (
      await admin.post(`/sites/${siteId}/nodes`, {
        name: 'pve-off',
        nodeType: 'hypervisor',
        apiUrl: 'https://127.0.0.1:1',
        tokenId: 'a@pam!b',
        secret: 's',
      })
    ).body.data.id;
    await db.updateTable('containers').set({ node_id: pve }).where('id', '=', id).execute();
    const refused = await owner.delete(`${base}/${id}`);
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('node_unreachable');
    expect((await owner.get(`${base}/${id}`)).status).toBe(200);
    await db.updateTable('containers').set({ container_id: null }).where('id', '=', id).execute();
    expect((await owner.delete(`${base}/${id}`)).status).toBe(200);
  });
});
