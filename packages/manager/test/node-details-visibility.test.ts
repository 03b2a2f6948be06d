import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxFake } from '@app/fakes';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { insertContainer } from './container-helpers.ts';

const TOKEN = 'root@pam!manager';
const SECRET = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const GENERIC = /could not be reached or refused; an administrator can see why/;

/**
 * Node addresses, token ids and what a hypervisor said when it failed are for administrators: other
 * users get the same shapes with null addresses and a generic sentence (the detail goes to the log).
 */
describe('node details are for administrators', () => {
  let test: TestManager;
  let pve: ProxmoxFake;
  let admin: ManagerClient;
  let alice: ManagerClient;
  let siteId: number;
  let nodeId: number;
  let containerId: number;

  beforeAll(async () => {
    pve = await new ProxmoxFake({ nodes: ['pve'], tokens: { [TOKEN]: SECRET }, taskDurationMs: 0 }).start();
    pve.addContainer({ vmid: 150, node: 'pve', status: 'running', config: { hostname: 'alices' } });
    test = await startFleetManager();
    admin = await adminClient(test);
    alice = await userClient(test, admin, 'alice');
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    nodeId = (
      await admin.post(`/sites/${siteId}/nodes`, {
        name: 'pve',
        apiUrl: pve.url,
        tokenId: TOKEN,
        secret: SECRET,
      })
    ).body.data.id;
    containerId = await insertContainer(test, {
      hostname: 'alices',
      owner: 'alice',
      nodeId,
      containerId: '150',
    });
  });
  afterAll(async () => {
    await test.close();
    await pve.stop();
  });

  it('a non-admin sees null apiUrl and tokenId; an administrator sees them', async () => {
    for (const answer of [
      (await alice.get(`/sites/${siteId}/nodes`)).body.data[0],
      (await alice.get(`/sites/${siteId}/nodes/${nodeId}`)).body.data,
    ]) {
      expect(answer).toMatchObject({ id: nodeId, name: 'pve', apiUrl: null, tokenId: null, hasSecret: true });
    }
    expect((await admin.get(`/sites/${siteId}/nodes/${nodeId}`)).body.data).toMatchObject({
      apiUrl: pve.url,
      tokenId: TOKEN,
    });
    const container = `/sites/${siteId}/containers/${containerId}`;
    expect((await alice.get(container)).body.data).toMatchObject({ nodeName: 'pve', nodeApiUrl: null });
    expect((await alice.get(`/sites/${siteId}/containers`)).body.data[0].nodeApiUrl).toBeNull();
    expect((await admin.get(container)).body.data.nodeApiUrl).toBe(pve.url);
  });

  it("a hypervisor's failure reaches a non-admin as a generic sentence, an administrator in full", async () => {
    pve.failAlways({ path: '/api2/json/nodes/pve/status', status: 500, message: 'disk /dev/sdz on fire' });
    const mine = (await alice.get(`/sites/${siteId}/nodes/${nodeId}/stats`)).body.data;
    expect(mine.available).toBe(false);
    expect(mine.reason).toMatch(GENERIC);
    expect(JSON.stringify(mine)).not.toMatch(/fire|127\.0\.0\.1|api2/);
    const full = (await admin.get(`/sites/${siteId}/nodes/${nodeId}/stats`)).body.data;
    expect(full.reason).toMatch(/disk \/dev\/sdz on fire/);
    pve.clearFailures();
  });

  it('a failed delete tells a non-admin the node refused, without what it said', async () => {
    pve.failAlways({
      method: 'DELETE',
      path: '/api2/json/nodes/pve/lxc/150',
      status: 500,
      message: 'zfs dataset busy',
    });
    const refused = await alice.delete(`/sites/${siteId}/containers/${containerId}`);
    expect(refused.status, refused.text).toBe(502);
    expect(refused.body.error.code).toBe('provider_error');
    expect(refused.body.error.message).toMatch(GENERIC);
    expect(refused.text).not.toMatch(/zfs|127\.0\.0\.1|api2/);
    const full = await admin.delete(`/sites/${siteId}/containers/${containerId}`);
    expect(full.status).toBe(502);
    expect(full.body.error.message).toMatch(/zfs dataset busy/);

    pve.clearFailures();
    await pve.setUnreachable(true);
    const unreachable = await alice.delete(`/sites/${siteId}/containers/${containerId}`);
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.error.code).toBe('node_unreachable');
    expect(unreachable.body.error.message).toMatch(GENERIC);
    expect(unreachable.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    await pve.setUnreachable(false);
  });
});
