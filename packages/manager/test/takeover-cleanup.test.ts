import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerFake, ProxmoxFake } from '@app/fakes';
import type { ManagerApp } from '../src/app.ts';
import { adminClient, startManager, startPeer, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, FAST_JOBS, siteInput } from './fleet-helpers.ts';
import { jobEnds, jobOutputs } from './container-helpers.ts';
import { killChild, startWorkerChild } from './worker-child.ts';

const TOKEN = 'root@pam!manager';
const SECRET = '6f1c2a9e-0d4b-4b7e-8a51-3c9e7d2f4a10';
const DEBIAN = 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst';
const DIED = 'Error: the worker running this job stopped responding; the job failed.';
/** Holds a request long enough for the worker making it to be killed meanwhile. */
const HELD_MS = 8_000;

/**
 * A create whose worker process is killed after the instance exists on the node: the worker that takes
 * the job over (here a manager started afterwards, as after a restart) removes the instance.
 */
describe(
  'a create whose worker is killed is taken over and leaves nothing on the node',
  { timeout: 60_000 },
  () => {
    const docker = new DockerFake();
    let pve: ProxmoxFake;
    let test: TestManager;
    let admin: ManagerClient;
    let child: ChildProcess | undefined;
    let survivor: ManagerApp | undefined;

    beforeAll(async () => {
      await docker.start();
      docker.addRemoteImage('app:1', { config: { Cmd: ['/app'] } });
      pve = await new ProxmoxFake({
        nodes: ['pve1'],
        tokens: { [TOKEN]: SECRET },
        taskDurationMs: 20,
      }).start();
      // The API alone: only the worker processes of the test run jobs.
      test = await startManager({ ...FAST_JOBS, JOB_LEASE_S: '1', JOB_HEARTBEAT_MS: '200' }, { role: 'api' });
      admin = await adminClient(test);
    });
    afterAll(async () => {
      if (child) await killChild(child);
      await survivor?.close();
      await test?.close();
      await docker.stop();
      await pve?.stop();
    });

    async function siteWithNode(name: string, net: string, node: Record<string, unknown>) {
      const site = await admin.post(
        '/sites',
        siteInput({ name, dhcpRange: `${net}.100,${net}.200`, gateway: `${net}.1` }),
      );
      const siteId = site.body.data.id as number;
      const created = await admin.post(`/sites/${siteId}/nodes`, { name, ...node });
      expect(created.status, created.text).toBe(201);
      return siteId;
    }

    /**
     * Creates `hostname` on a worker process, kills it once the job output shows `madeLine` (the instance
     * exists on the node: `exists` checks it), then lets a new worker take the job over.
     */
    async function killedCreate(
      siteId: number,
      body: { hostname: string; template: string },
      madeLine: RegExp,
      exists: () => Promise<boolean>,
      { env = {}, afterKill }: { env?: Record<string, string>; afterKill?: () => Promise<void> } = {},
    ) {
      child = await startWorkerChild(test, env);
      const response = await admin.post(`/sites/${siteId}/containers`, body);
      expect(response.status, response.text).toBe(201);
      const { containerId, jobId } = response.body.data as { containerId: number; jobId: number };
      const seen = await eventually(async () => {
        const outputs = await jobOutputs(admin, jobId);
        const ended = outputs.some((line) => madeLine.test(line) || line.startsWith('Error'));
        return ended ? outputs : undefined;
      }, 20_000);
      expect(
        seen.some((line) => madeLine.test(line)),
        seen.join('\n'),
      ).toBe(true);
      expect(await exists()).toBe(true);
      await killChild(child);
      child = undefined;
      await afterKill?.();

      survivor = await startPeer(test, { role: 'worker' });
      const status = await jobEnds(admin, jobId);
      await survivor.close();
      survivor = undefined;
      const outputs = await jobOutputs(admin, jobId);
      const container = (await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data;
      return { status, outputs, container };
    }

    /** killedCreate of `hostname` on a new engine node of the Docker fake, killed while it starts. */
    async function killedEngineCreate(
      node: string,
      net: string,
      hostname: string,
      options: { afterKill?: () => Promise<void> } = {},
    ) {
      const siteId = await siteWithNode(node, net, {
        nodeType: 'engine',
        apiUrl: `http://127.0.0.1:${docker.port}`,
      });
      const named = () =>
        [...docker.store.containers.values()].filter((c) => c.name.replace(/^\//, '') === hostname);
      docker.setLatency(HELD_MS, { method: 'POST', path: /\/start$/ });
      const result = await killedCreate(
        siteId,
        { hostname, template: 'app:1' },
        /^Starting container /,
        async () => named().length === 1,
        options,
      );
      return { ...result, siteId, named };
    }

    it('on a simulated (dummy) node', async () => {
      const siteId = await siteWithNode('sim1', '10.3.0', { nodeType: 'dummy' });
      const instances = () =>
        test.manager.database.db
          .selectFrom('dummy_instances')
          .selectAll()
          .where('hostname', '=', 'sim-app')
          .execute();
      const { status, outputs, container } = await killedCreate(
        siteId,
        { hostname: 'sim-app', template: 'debian:12' },
        /^Pulling image/,
        async () => (await instances()).length === 1,
        { env: { DUMMY_STEP_MS: '400' } },
      );
      expect(status).toBe('failure');
      expect(outputs).toContainEqual(
        expect.stringMatching(/^Removed \d+ \(sim-app\), which the create had made on sim1\.$/),
      );
      expect(outputs.at(-1)).toBe(DIED);
      expect(container.status).toBe('failed');
      expect(await instances()).toEqual([]);
    });

    it('on a container engine node (the Docker fake)', async () => {
      const { named, status, outputs, container } = await killedEngineCreate('docker1', '10.4.0', 'eng-app');
      docker.resetControls();
      expect(status).toBe('failure');
      expect(outputs).toContain('Removed eng-app (eng-app), which the create had made on docker1.');
      expect(outputs.at(-1)).toBe(DIED);
      expect(container.status).toBe('failed');
      expect(named()).toEqual([]);
    });

    it('says what is left and where when the node cannot remove it', async () => {
      const { named, siteId, status, outputs } = await killedEngineCreate('docker2', '10.6.0', 'eng-left', {
        afterKill: () => docker.setUnreachable(true),
      });
      await docker.setUnreachable(false);
      docker.resetControls();
      expect(status).toBe('failure');
      expect(outputs).toContainEqual(
        expect.stringMatching(
          /^Instance eng-left \(eng-left\) may be left on node docker2: .*; remove it there\.$/,
        ),
      );
      expect(outputs.at(-1)).toBe(DIED);
      // Read while the node answers again: the row says `failed`, the instance is still there.
      const container = (await admin.get(`/sites/${siteId}/containers`)).body.data[0];
      expect(container.status).toBe('failed');
      expect(named()).toHaveLength(1);
    });

    it('on a Proxmox VE node (the PVE fake)', async () => {
      const siteId = await siteWithNode('pve1', '10.5.0', {
        nodeType: 'hypervisor',
        apiUrl: pve.url,
        tokenId: TOKEN,
        secret: SECRET,
      });
      const named = () => [...pve.state.containers.values()].filter((ct) => ct.config.hostname === 'pve-app');
      pve.setLatency(HELD_MS, { method: 'POST', path: /\/status\/start$/ });
      const { status, outputs, container } = await killedCreate(
        siteId,
        { hostname: 'pve-app', template: DEBIAN },
        /^Starting CT /,
        async () => named().length === 1,
      );
      pve.resetControls();
      expect(status).toBe('failure');
      expect(outputs).toContainEqual(
        expect.stringMatching(/^Removed \d+ \(pve-app\), which the create had made on pve1\.$/),
      );
      expect(outputs.at(-1)).toBe(DIED);
      expect(container.status).toBe('failed');
      expect(named()).toEqual([]);
    });
  },
);
