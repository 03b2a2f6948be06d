import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type OpenApiDocument } from '@app/server-kit/testing/openapi-fuzz';
import { startFleetManager } from './fleet-helpers.ts';
import type { TestManager } from './helpers.ts';
import { buildWorld, CALLERS, type World } from './authorization/callers.ts';
import { ROWS } from './authorization/rows.ts';

/**
 * The authorization matrix: every route of the manager's API × every kind of caller → the status that
 * caller gets, checked over the real server. A route without a row fails, so none is added unjudged.
 */
describe('who may call what (manager)', () => {
  let test: TestManager;
  let world: World;
  beforeAll(async () => {
    // Every caller shares the loopback address: quotas are another test's subject.
    test = await startFleetManager({ QUOTA_PER_ADDRESS: '1000' });
    world = await buildWorld(test);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
    await test?.close();
  });

  it('has one row for every route of the API document', async () => {
    const routes = operationsOf((await world.setup.get('/openapi.json')).body as OpenApiDocument);
    expect(ROWS.map((row) => row.route).sort()).toEqual(routes.sort());
  });

  it('gives every caller the status its row says, on every route', async () => {
    const mismatches: string[] = [];
    for (const row of ROWS) {
      const [method, template] = row.route.split(' ') as [string, string];
      for (const caller of CALLERS) {
        let status = row.run ? await row.run(world, caller) : -1;
        if (status === -1) {
          const request = await row.request(world, caller);
          status = await world.call(caller, method, request.path, request.body);
        }
        if (status !== row.expect[caller]) {
          mismatches.push(
            `${row.route} as ${caller}: ${status}, expected ${row.expect[caller]} (${template})`,
          );
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 300_000);
});
