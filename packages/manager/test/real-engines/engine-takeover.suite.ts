import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ManagerApp } from '../../src/app.ts';
import { startPeer } from '../helpers.ts';
import { eventually } from '../fleet-helpers.ts';
import { jobEnds, jobOutputs } from '../container-helpers.ts';
import { killChild, startWorkerChild } from '../worker-child.ts';
import { engineCall } from './engine-api.ts';
import { engineSite, removeEngineSite, startCreateWithAgent, type EngineSite } from './engine-fixture.ts';
import { MANAGED_LABEL } from '../../src/providers/engine/engine-network.ts';
import { stallingEngine } from './flaky-engine.ts';

const { engines, registry, image } = inject('realEngines');

const DIED = 'Error: the worker running this job stopped responding; the job failed.';
const LEASE = { JOB_LEASE_S: '1', JOB_HEARTBEAT_MS: '200' };

/**
 * A create whose worker process is killed after the container exists on a real engine (its start never
 * answered): the worker that takes the job over, started afterwards as after a restart, removes it.
 */
describe.each(engines.map((engine, index) => ({ ...engine, subnet: `10.231.${index + 21}` })))(
  'a create on a real $name engine whose worker is killed',
  ({ name, socket, subnet }) => {
    let stalling: Awaited<ReturnType<typeof stallingEngine>>;
    let site: EngineSite | undefined;
    let child: ChildProcess | undefined;
    let survivor: ManagerApp | undefined;

    beforeAll(async () => {
      stalling = await stallingEngine(socket);
      // The API alone: only the worker processes of the test run jobs.
      site = await engineSite(stalling.socketPath, subnet, registry, LEASE, { role: 'api' });
    });
    afterAll(async () => {
      if (child) await killChild(child);
      await survivor?.close();
      await removeEngineSite(site, socket, image);
      await stalling?.close();
    });

    it('is taken over: the job fails saying so, the container is failed, nothing is left on the engine', async () => {
      const { admin, siteId, test } = site!;
      const hostname = `re-killed-${name}`;
      const startedAt = Math.floor(Date.now() / 1000);
      child = await startWorkerChild(test, {
        ...LEASE,
        NODE_TIMEOUT_MS: '30000',
        VOLUME_STORAGE_ROOT: site!.storageRoot,
      });
      const { containerId, jobId } = await startCreateWithAgent(site!, siteId, { hostname, template: image });
      await eventually(async () => stalling.tripped(), 60_000);
      const made = await engineCall(socket, 'GET', `/containers/${hostname}/json`);
      expect(made.status).toBe(200);
      expect(made.body).toMatchObject({ State: { Running: false } });
      await killChild(child);
      child = undefined;

      // The survivor runs the jobs from here on, the delete at the end included (a delete is a job).
      survivor = await startPeer(test, { role: 'worker' });
      const status = await jobEnds(admin, jobId);

      const outputs = await jobOutputs(admin, jobId);
      expect(status, outputs.join('\n')).toBe('failure');
      expect(outputs).toContain(`Removed ${hostname} (${hostname}), which the create had made on engine1.`);
      expect(outputs.at(-1)).toBe(DIED);
      const container = (await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data;
      expect(container).toMatchObject({ status: 'failed', containerId: null });
      expect((await engineCall(socket, 'GET', `/containers/${hostname}/json`)).status).toBe(404);
      const filters = encodeURIComponent(JSON.stringify({ label: [`${MANAGED_LABEL}=true`] }));
      const labelled = (await engineCall(socket, 'GET', `/containers/json?all=1&filters=${filters}`)).body;
      expect((labelled as Array<{ Created: number }>).filter((c) => c.Created >= startedAt)).toEqual([]);
      // The failed container can be removed: nothing of it holds its name or address any more.
      expect((await admin.delete(`/sites/${siteId}/containers/${containerId}`)).status).toBe(200);
    });
  },
);
