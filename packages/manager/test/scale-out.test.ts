import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testDialect, type RunningService } from '@app/server-kit/testing';
import { freePort, ManagerClient } from './helpers.ts';
import { runManager } from './manager-process.ts';
import { jobEnds } from './container-helpers.ts';

const CONTAINERS = 40;
const STARTUP_MS = 90_000;

/** The jobs a worker process says it started (its `job started` log lines). */
function jobsStartedBy(worker: RunningService): number[] {
  return worker
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"job started"'))
    .map((line) => (JSON.parse(line) as { jobId: number }).jobId);
}

// SQLite is one file on one host; several manager processes sharing the queue (claims with
// FOR UPDATE SKIP LOCKED, NOTIFY between processes) is the PostgreSQL deployment.
describe.skipIf(testDialect() !== 'postgres')(
  'scale-out: an API process and two worker processes on one PostgreSQL database (PostgreSQL only)',
  { timeout: 60_000 },
  () => {
    let database: { url: string; drop(): Promise<void> };
    let processes: RunningService[] = [];
    let api: ManagerClient;

    beforeAll(async () => {
      database = await createPostgresDatabase();
      const port = await freePort();
      const env = {
        MANAGER_DATABASE_URL: database.url,
        SECRET_KEY: 'scale-out-test-secret-key-0123456789',
        RATE_LIMIT_FAILURES: '100000',
        DUMMY_STEP_MS: '10',
        JOB_CONCURRENCY: '3',
        HOST: '127.0.0.1',
        MANAGER_PORT: String(port),
      };
      // All three start together on an empty database, as a fresh deployment does.
      processes = [
        runManager(env, ['--role', 'api']),
        runManager(env, ['--role', 'worker']),
        runManager(env, ['--role', 'worker']),
      ];
      // Three cold starts at once (each compiles the manager) take a while on a busy machine.
      await Promise.all([
        processes[0]!.waitFor('manager ready', STARTUP_MS),
        processes[1]!.waitFor('manager worker running', STARTUP_MS),
        processes[2]!.waitFor('manager worker running', STARTUP_MS),
      ]);
      api = new ManagerClient(`http://127.0.0.1:${port}/api/v1`);
      expect((await api.register({ uid: 'admin' })).status).toBe(201);
      await api.login('admin');
    }, STARTUP_MS + 30_000);
    afterAll(async () => {
      await Promise.all(processes.map((proc) => proc.stop()));
      await database?.drop();
    });

    it('runs every job exactly once, on one worker or the other, never on the API process', async () => {
      // One demo site with one simulated node, seeded once although three processes started together.
      const sites = (await api.get('/sites')).body.data as Array<{ id: number; name: string }>;
      expect(sites.map((site) => site.name)).toEqual(['Demo site']);
      const siteId = sites[0]!.id;
      expect((await api.get(`/sites/${siteId}/nodes`)).body.data).toHaveLength(1);

      const created = await Promise.all(
        Array.from({ length: CONTAINERS }, (_, index) =>
          api.post(`/sites/${siteId}/containers`, { hostname: `app${index}`, template: 'debian:12' }),
        ),
      );
      expect(created.map((response) => response.status)).toEqual(Array(CONTAINERS).fill(201));
      const jobIds = created.map((response) => response.body.data.jobId as number);
      const statuses = await Promise.all(jobIds.map((id) => jobEnds(api, id)));
      expect(statuses).toEqual(Array(CONTAINERS).fill('success'));

      // Each job's output shows one run: one allocation on the node, one end.
      for (const id of jobIds) {
        const outputs = ((await api.get(`/jobs/${id}/status`)).body.data as Array<{ output: string }>).map(
          (row) => row.output,
        );
        expect(outputs.filter((line) => line.startsWith('Allocating container'))).toHaveLength(1);
        expect(outputs.filter((line) => line === 'TASK OK')).toHaveLength(1);
        expect(outputs.some((line) => line.startsWith('Resuming on worker'))).toBe(false);
      }

      // Each worker started a share of the jobs; no job was started twice; the API process ran none.
      const [apiProcess, first, second] = processes as [RunningService, RunningService, RunningService];
      const byFirst = jobsStartedBy(first);
      const bySecond = jobsStartedBy(second);
      expect(byFirst.length).toBeGreaterThan(0);
      expect(bySecond.length).toBeGreaterThan(0);
      expect([...byFirst, ...bySecond].sort((a, b) => a - b)).toEqual([...jobIds].sort((a, b) => a - b));
      expect(jobsStartedBy(apiProcess)).toEqual([]);

      // The node holds one instance per container, each the one its container points at.
      const containers = (await api.get(`/sites/${siteId}/containers`)).body.data as Array<{
        status: string;
        containerId: string;
      }>;
      expect(containers.map((container) => container.status)).toEqual(Array(CONTAINERS).fill('running'));
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const instances = await client.query<{ vmid: number }>('select vmid from dummy_instances');
        expect(instances.rows.map((row) => String(row.vmid)).sort()).toEqual(
          containers.map((container) => container.containerId).sort(),
        );
      } finally {
        await client.end();
      }
    });

    it('answers a DELETE on the API process once a worker process has run the delete job', async () => {
      const siteId = ((await api.get('/sites')).body.data as Array<{ id: number }>)[0]!.id;
      const [container] = (await api.get(`/sites/${siteId}/containers`)).body.data as Array<{ id: number }>;
      const deleted = await api.delete(`/sites/${siteId}/containers/${container!.id}`);
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body.data).toMatchObject({ deleted: true });
      expect((await api.get(`/sites/${siteId}/containers/${container!.id}`)).status).toBe(404);
      const [apiProcess, ...workers] = processes as [RunningService, RunningService, RunningService];
      expect(jobsStartedBy(apiProcess)).toEqual([]);
      expect(workers.flatMap(jobsStartedBy)).toHaveLength(CONTAINERS + 1);
    });
  },
);
