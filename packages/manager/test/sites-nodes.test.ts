import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { insertContainer } from './container-helpers.ts';

describe('sites and nodes', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let user: ManagerClient;
  let siteId: number;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    user = await userClient(test, admin, 'alice');
  });
  afterAll(() => test.close());

  describe('sites', () => {
    it('creates a site (201, no nodeCount) and shows and lists it with nodeCount', async () => {
      const created = await admin.post('/sites', siteInput({ dhcpRange: '10.0.0.100-10.0.0.200' }));
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: expect.any(Number),
        ...siteInput({ dhcpRange: '10.0.0.100-10.0.0.200' }),
      });
      expect(created.body.data).not.toHaveProperty('nodeCount');
      siteId = created.body.data.id;

      const shown = await user.get(`/sites/${siteId}`);
      expect(shown.status).toBe(200);
      expect(shown.body.data).toEqual({ ...created.body.data, nodeCount: 0 });
      const listed = await user.get('/sites');
      expect(listed.body.data).toEqual([{ ...created.body.data, nodeCount: 0 }]);
    });

    it('PUT is a full update: an omitted externalIp is cleared, and the answer has no nodeCount', async () => {
      const { externalIp: _omit, ...rest } = siteInput({ name: 'Main renamed' });
      const updated = await admin.put(`/sites/${siteId}`, rest);
      expect(updated.status).toBe(200);
      expect(updated.body.data).toEqual({ id: siteId, ...rest, externalIp: null });
      expect(
        (await admin.put(`/sites/${siteId}`, siteInput({ externalIp: '' }))).body.data.externalIp,
      ).toBeNull();
      await admin.put(`/sites/${siteId}`, siteInput());
    });

    it('answers 422 validation_failed naming each broken network field', async () => {
      const response = await admin.post(
        '/sites',
        siteInput({
          dhcpRange: '10.0.0.200,10.0.0.100',
          subnetMask: '255.0.255.0',
          gateway: 'gw',
          dnsForwarders: '1.1.1.1,nope',
          externalIp: 'x',
        }),
      );
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(Object.keys(response.body.error.fields).sort()).toEqual([
        'dhcpRange',
        'dnsForwarders',
        'externalIp',
        'gateway',
        'subnetMask',
      ]);
      // No forwarders at all is a choice (the gateway's own resolvers), not an error.
      const noForwarders = await admin.post(
        '/sites',
        siteInput({ name: 'plain', internalDomain: 'plain.internal', dnsForwarders: ' ' }),
      );
      expect(noForwarders.status, noForwarders.text).toBe(201);
      expect(noForwarders.body.data.dnsForwarders).toBe('');
      await admin.delete(`/sites/${noForwarders.body.data.id}`);
      const range = await admin.post('/sites', siteInput({ dhcpRange: 'one to two' }));
      expect(range.status).toBe(422);
      expect(range.body.error.fields).toHaveProperty('dhcpRange');
    });

    it('answers 400 invalid_request for a missing field, 404 for unknown sites, 403 for non-admins', async () => {
      const { name: _name, ...noName } = siteInput();
      const missing = await admin.post('/sites', noName);
      expect(missing.status).toBe(400);
      expect(missing.body.error).toMatchObject({ code: 'invalid_request', fields: { name: 'is required' } });
      expect((await admin.get('/sites/9999')).status).toBe(404);
      expect((await admin.get('/sites/9999')).body.error.code).toBe('site_not_found');
      expect((await admin.put('/sites/9999', siteInput())).status).toBe(404);
      expect((await admin.delete('/sites/9999')).status).toBe(404);
      expect((await user.post('/sites', siteInput())).status).toBe(403);
      expect((await user.put(`/sites/${siteId}`, siteInput())).status).toBe(403);
      expect((await user.delete(`/sites/${siteId}`)).status).toBe(403);
      expect((await test.client().get('/sites')).status).toBe(401);
    });
  });

  describe('nodes', () => {
    let nodeId: number;

    it('creates a node with the spec defaults, the secret sealed and never returned', async () => {
      const created = await admin.post(`/sites/${siteId}/nodes`, {
        name: 'pve1',
        apiUrl: 'https://pve1:8006',
        tokenId: 'root@pam!mgr',
        secret: 's3cret',
      });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: expect.any(Number),
        name: 'pve1',
        nodeType: 'hypervisor',
        siteId,
        ipv4Address: null,
        apiUrl: 'https://pve1:8006',
        tokenId: 'root@pam!mgr',
        tlsVerify: null,
        tlsFingerprint: null,
        imageStorage: 'local',
        volumeStorage: 'local-lvm',
        networkBridge: 'vmbr0',
        nvidiaAvailable: false,
        volumeIdShift: null,
        hasSecret: true,
      });
      expect(created.text).not.toContain('s3cret');
      nodeId = created.body.data.id;
      const stored = await test.manager.database.db
        .selectFrom('nodes')
        .select('secret_sealed')
        .where('id', '=', nodeId)
        .executeTakeFirstOrThrow();
      expect(stored.secret_sealed).not.toContain('s3cret');
      expect(test.manager.services.ctx.secrets.open(stored.secret_sealed!)).toBe('s3cret');
      expect((await user.get(`/sites/${siteId}`)).body.data.nodeCount).toBe(1);
    });

    it('keeps an explicit null as null (tlsVerify null is "unset", not false)', async () => {
      const created = await admin.post(`/sites/${siteId}/nodes`, {
        name: 'pve-null',
        apiUrl: 'https://pve-null:8006',
        tlsVerify: null,
        ipv4Address: null,
        nvidiaAvailable: null,
      });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ tlsVerify: null, ipv4Address: null, nvidiaAvailable: false });
      expect((await admin.delete(`/sites/${siteId}/nodes/${created.body.data.id}`)).status).toBe(204);
    });

    it('lists and shows nodes to signed-in users', async () => {
      const list = await user.get(`/sites/${siteId}/nodes`);
      expect(list.status).toBe(200);
      expect(list.body.data.map((node: { name: string }) => node.name)).toEqual(['pve1']);
      const shown = await user.get(`/sites/${siteId}/nodes/${nodeId}`);
      expect(shown.body.data).toMatchObject({ id: nodeId, name: 'pve1', hasSecret: true });
      expect((await user.get(`/sites/9999/nodes`)).body.error.code).toBe('site_not_found');
      expect((await user.get(`/sites/${siteId}/nodes/9999`)).status).toBe(404);
    });

    it('accepts the aliases proxmox and docker and answers in the spec vocabulary', async () => {
      const proxmox = await admin.post(`/sites/${siteId}/nodes`, { name: 'pve2', nodeType: 'proxmox' });
      expect(proxmox.body.data.nodeType).toBe('hypervisor');
      const docker = await admin.post(`/sites/${siteId}/nodes`, {
        name: 'dock1',
        nodeType: 'docker',
        apiUrl: 'unix:///var/run/docker.sock',
      });
      expect(docker.status).toBe(201);
      expect(docker.body.data).toMatchObject({ nodeType: 'engine', hasSecret: false });
      const dummy = await admin.post(`/sites/${siteId}/nodes`, {
        name: 'sim1',
        nodeType: 'dummy',
        secret: '',
      });
      expect(dummy.body.data).toMatchObject({ nodeType: 'dummy', hasSecret: false });
    });

    it('answers 400 invalid_node_type and invalid_engine_host', async () => {
      const type = await admin.post(`/sites/${siteId}/nodes`, { name: 'x1', nodeType: 'vmware' });
      expect(type.status).toBe(400);
      expect(type.body.error.code).toBe('invalid_node_type');
      for (const apiUrl of [
        undefined,
        'ftp://host:21',
        'tcp://host',
        'unix://relative',
        'https://',
        'not a url',
      ]) {
        const response = await admin.post(`/sites/${siteId}/nodes`, {
          name: 'e1',
          nodeType: 'engine',
          ...(apiUrl ? { apiUrl } : {}),
        });
        expect(response.status, String(apiUrl)).toBe(400);
        expect(response.body.error.code).toBe('invalid_engine_host');
      }
      for (const apiUrl of ['tcp://10.0.0.5:2375', 'http://10.0.0.5:2375', 'https://docker.example:2376']) {
        const response = await admin.post(`/sites/${siteId}/nodes`, {
          name: `ok-${apiUrl.split(':')[0]}`,
          nodeType: 'engine',
          apiUrl,
        });
        expect(response.status, apiUrl).toBe(201);
      }
      const badPut = await admin.put(`/sites/${siteId}/nodes/${nodeId}`, { name: 'pve1', nodeType: 'nope' });
      expect(badPut.body.error.code).toBe('invalid_node_type');
    });

    it('answers 409 conflict for a duplicate name, 422 for a bad address, 403 for non-admins', async () => {
      const duplicate = await admin.post(`/sites/${siteId}/nodes`, { name: 'pve1' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error).toMatchObject({ code: 'conflict', fields: { name: expect.any(String) } });
      const bad = await admin.post(`/sites/${siteId}/nodes`, { name: 'pve9', ipv4Address: '999.1.1.1' });
      expect(bad.status).toBe(422);
      expect(bad.body.error.fields).toHaveProperty('ipv4Address');
      expect((await user.post(`/sites/${siteId}/nodes`, { name: 'u1' })).status).toBe(403);
      expect((await user.put(`/sites/${siteId}/nodes/${nodeId}`, { name: 'pve1' })).status).toBe(403);
      expect((await user.delete(`/sites/${siteId}/nodes/${nodeId}`)).status).toBe(403);
      expect(
        (
          await user.post(`/sites/${siteId}/nodes/import`, {
            apiUrl: 'https://x:8006',
            username: 'a',
            password: 'b',
          })
        ).status,
      ).toBe(403);
    });

    it('PUT resets omitted fields, keeps nodeType and a blank secret (while apiUrl stays), replaces a given secret', async () => {
      const full = await admin.put(`/sites/${siteId}/nodes/${nodeId}`, {
        name: 'pve1',
        ipv4Address: '10.0.0.5',
        apiUrl: 'https://pve1:8006',
        tokenId: 'root@pam!mgr',
        secret: '',
        tlsVerify: true,
        imageStorage: 'nfs',
        volumeStorage: 'zfs',
        networkBridge: 'vmbr1',
        nvidiaAvailable: true,
        volumeIdShift: 200000,
      });
      expect(full.status).toBe(200);
      expect(full.body.data).toMatchObject({
        nodeType: 'hypervisor',
        ipv4Address: '10.0.0.5',
        tlsVerify: true,
        imageStorage: 'nfs',
        nvidiaAvailable: true,
        volumeIdShift: 200000,
        hasSecret: true,
      });
      const reset = await admin.put(`/sites/${siteId}/nodes/${nodeId}`, { name: 'pve1' });
      expect(reset.body.data).toEqual({
        id: nodeId,
        name: 'pve1',
        nodeType: 'hypervisor',
        siteId,
        ipv4Address: null,
        apiUrl: null,
        tokenId: null,
        tlsVerify: null,
        tlsFingerprint: null,
        imageStorage: 'local',
        volumeStorage: 'local-lvm',
        networkBridge: 'vmbr0',
        nvidiaAvailable: false,
        volumeIdShift: null,
        hasSecret: false, // it went with the apiUrl it was for
      });
      await admin.put(`/sites/${siteId}/nodes/${nodeId}`, { name: 'pve1', secret: 'new-secret' });
      const connection = await test.manager.services.nodes.connection(siteId, nodeId);
      expect(connection.secret).toBe('new-secret');
      expect((await admin.put(`/sites/${siteId}/nodes/9999`, { name: 'zz' })).status).toBe(404);
    });

    it('storages is empty and stats unavailable for a node without credentials; 404s name the missing thing', async () => {
      const storages = await user.get(`/sites/${siteId}/nodes/${nodeId}/storages`);
      expect(storages.status).toBe(200);
      expect(storages.body.data).toEqual([]);
      const stats = await user.get(`/sites/${siteId}/nodes/${nodeId}/stats`);
      expect(stats.status).toBe(200);
      expect(stats.body.data.available).toBe(false);
      expect((await user.get(`/sites/9999/nodes/${nodeId}/storages`)).body.error.code).toBe('site_not_found');
      const missing = await user.get(`/sites/${siteId}/nodes/9999/stats`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
    });

    it('a dummy node reports storages and live stats', async () => {
      const nodes = (await user.get(`/sites/${siteId}/nodes`)).body.data as Array<{
        id: number;
        name: string;
      }>;
      const sim = nodes.find((node) => node.name === 'sim1')!;
      expect((await user.get(`/sites/${siteId}/nodes/${sim.id}/storages`)).body.data).toEqual([
        { name: 'local', total: expect.any(Number), available: expect.any(Number) },
      ]);
      const stats = (await user.get(`/sites/${siteId}/nodes/${sim.id}/stats`)).body.data;
      expect(stats).toMatchObject({
        available: true,
        cpu: { cores: 8 },
        memory: { total: expect.any(Number) },
        uptime: expect.any(Number),
      });
      expect(stats.datastores).toHaveLength(2);
    });

    it('refuses to delete a node with containers (409 has_containers) and a site with nodes (409 has_nodes)', async () => {
      await insertContainer(test, { hostname: 'web1', owner: 'alice', nodeId, containerId: '101' });
      const blocked = await admin.delete(`/sites/${siteId}/nodes/${nodeId}`);
      expect(blocked.status).toBe(409);
      expect(blocked.body.error.code).toBe('has_containers');
      await test.manager.database.db.deleteFrom('containers').execute();

      const site = await admin.delete(`/sites/${siteId}`);
      expect(site.status).toBe(409);
      expect(site.body.error.code).toBe('has_nodes');

      expect((await admin.delete(`/sites/${siteId}/nodes/${nodeId}`)).status).toBe(204);
      expect((await admin.delete(`/sites/${siteId}/nodes/${nodeId}`)).status).toBe(404);
      for (const node of (await admin.get(`/sites/${siteId}/nodes`)).body.data as Array<{ id: number }>) {
        expect((await admin.delete(`/sites/${siteId}/nodes/${node.id}`)).status).toBe(204);
      }
      const deleted = await admin.delete(`/sites/${siteId}`);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect((await admin.get(`/sites/${siteId}`)).status).toBe(404);
    });
  });
});
