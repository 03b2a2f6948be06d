import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/demo/seed.ts';
import { adminClient, startManager, type ManagerClient, type TestManager } from './helpers.ts';

describe('demo seed on an empty database', () => {
  let test: TestManager;
  let admin: ManagerClient;
  const sites = async () =>
    (await admin.get('/sites')).body.data as Array<{ id: number; name: string; nodeCount: number }>;

  beforeAll(async () => {
    test = await startManager();
    admin = await adminClient(test);
  });
  afterAll(() => test.close());

  it('seeds nothing in production', async () => {
    expect(await seedDemo(test.manager.services, true)).toBe(false);
    expect(await sites()).toEqual([]);
  });

  it('seeds one demo site with one simulated node and a domain when two processes start together', async () => {
    // Two start-ups at the same moment (on PostgreSQL each on its own connection, as two processes).
    const seeded = await Promise.all([
      seedDemo(test.manager.services, false),
      seedDemo(test.manager.services, false),
    ]);
    expect(seeded.sort()).toEqual([false, true]);
    const [site, ...others] = await sites();
    expect(others).toEqual([]);
    expect(site).toMatchObject({ name: 'Demo site', nodeCount: 1 });
    expect((await admin.get(`/sites/${site!.id}/nodes`)).body.data).toMatchObject([
      { name: 'demo-node', nodeType: 'dummy' },
    ]);
    // An HTTP service has a domain to use from the first container on.
    expect((await admin.get(`/sites/${site!.id}/containers/new`)).body.data.externalDomains).toEqual([
      { id: expect.any(Number), name: 'demo.example.test', siteId: site!.id },
    ]);
    expect(await seedDemo(test.manager.services, false)).toBe(false);
  });
});
