import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerFake } from '@app/fakes';
import { freePort } from '@app/server-kit/testing';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';

/** POST …/nodes/test: a node form's connection is tried before it is saved, and nothing is saved. */
describe('testing a node connection before saving', () => {
  const engine = new DockerFake({ cpus: 2 });
  let test: TestManager;
  let admin: ManagerClient;
  let siteId: number;
  let url: string;

  beforeAll(async () => {
    await engine.start();
    test = await startFleetManager();
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    url = `/sites/${siteId}/nodes/test`;
  });
  afterAll(async () => {
    await test?.close();
    await engine.stop();
  });

  const nodeNames = async () =>
    ((await admin.get(`/sites/${siteId}/nodes`)).body.data as Array<{ name: string }>).map((n) => n.name);

  it('answers the live usage of a reachable engine and saves nothing', async () => {
    const tried = await admin.post(url, {
      name: 'docker1',
      nodeType: 'engine',
      apiUrl: `http://127.0.0.1:${engine.port}`,
    });
    expect(tried.status, tried.text).toBe(200);
    expect(tried.body.data.available).toBe(true);
    expect(tried.body.data.cpu.cores).toBe(2);
    expect(await nodeNames()).toEqual([]);
  });

  it("says why an unreachable engine cannot be used, in the node's words", async () => {
    const tried = await admin.post(url, {
      name: 'gone',
      nodeType: 'engine',
      apiUrl: `http://127.0.0.1:${await freePort()}`,
    });
    expect(tried.status).toBe(200);
    expect(tried.body.data.available).toBe(false);
    expect(tried.body.data.reason).toMatch(/ECONNREFUSED|refused|unreachable/i);
  });

  it('refuses an invalid form as saving would (400), and non-administrators (403)', async () => {
    const invalid = await admin.post(url, { name: 'bad', nodeType: 'engine', apiUrl: 'ftp://x' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_engine_host');
    const user = await userClient(test, admin, 'nora');
    expect((await user.post(url, { name: 'x', nodeType: 'dummy' })).status).toBe(403);
    expect((await admin.post(`/sites/999999/nodes/test`, { name: 'x', nodeType: 'dummy' })).status).toBe(404);
  });

  it("tries a saved node's changed form with its stored settings (nodeId)", async () => {
    const saved = await admin.post(`/sites/${siteId}/nodes`, {
      name: 'docker2',
      nodeType: 'engine',
      apiUrl: `http://127.0.0.1:${engine.port}`,
    });
    expect(saved.status).toBe(201);
    const tried = await admin.post(url, {
      nodeId: saved.body.data.id,
      name: 'docker2',
      apiUrl: `http://127.0.0.1:${engine.port}`,
    });
    expect(tried.body.data.available).toBe(true);
    const otherSite = (
      await admin.post('/sites', siteInput({ name: 'other', internalDomain: 'other.internal' }))
    ).body.data.id;
    const elsewhere = await admin.post(`/sites/${otherSite}/nodes/test`, {
      nodeId: saved.body.data.id,
      name: 'docker2',
    });
    expect(elsewhere.status).toBe(404);
  });
});
