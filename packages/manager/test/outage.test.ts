import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envReader } from '@app/server-kit';
import { startPrivatePostgres, type PrivatePostgres } from '@app/server-kit/testing/private-postgres';
import { expectOutageAnswered, outageDrill, pollReadiness } from '@app/server-kit/testing/outage-drill';
import { readManagerConfig } from '../src/config.ts';
import { buildManager, type ManagerApp } from '../src/app.ts';
import { ManagerClient } from './helpers.ts';
import { eventually, FAST_JOBS, siteInput } from './fleet-helpers.ts';

/**
 * The manager on a PostgreSQL cluster of its own, which is stopped under load and started again: while
 * it is down every answer is a 503 in the envelope (never a 500, never a hang), the manager recovers by
 * itself, and every job it accepted ends exactly once. It brings its own PostgreSQL whatever
 * TEST_DATABASE_URL says, so it runs in the default pass only (the PostgreSQL pass would repeat it).
 */
describe.skipIf(process.env.TEST_DATABASE_URL)('manager through a database outage', () => {
  let postgres: PrivatePostgres;
  let manager: ManagerApp;
  let dataDir: string;
  let client: ManagerClient;
  let siteId: number;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'outage-'));
    const config = readManagerConfig(
      envReader({
        ...FAST_JOBS,
        DUMMY_STEP_MS: '30',
        // Short leases, so a claim whose answer the outage swallowed is back in the queue soon.
        JOB_LEASE_S: '3',
        DATA_DIR: dataDir,
        MANAGER_DATABASE_URL: postgres.url,
        LOG_LEVEL: 'silent',
        RATE_LIMIT_FAILURES: '100000',
        REGISTRY_MIRROR: 'http://127.0.0.1:9',
      }),
    );
    manager = await buildManager(config);
    const address = await manager.app.listen({ port: 0, host: '127.0.0.1' });
    const admin = new ManagerClient(`${address}/api/v1`);
    await admin.register({ uid: 'admin' });
    await admin.login('admin');
    const key = (await admin.post('/apikeys', { description: 'load' })).body.data.key as string;
    client = new ManagerClient(`${address}/api/v1`);
    client.defaultHeaders.authorization = `Bearer ${key}`;
    siteId = (await client.post('/sites', siteInput())).body.data.id;
    await client.post(`/sites/${siteId}/nodes`, { name: 'sim', nodeType: 'dummy' });
  }, 60_000);
  afterAll(async () => {
    await manager?.close();
    await postgres?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down, recovers by itself, and runs every accepted job once', async () => {
    const jobIds: number[] = [];
    let made = 0;
    const report = await outageDrill(postgres, {
      load: [
        () => client.get(`/sites/${siteId}/containers`),
        async () => {
          const response = await client.post(`/sites/${siteId}/containers`, {
            hostname: `load${++made}`,
            template: 'debian:12',
          });
          if (response.status === 201) jobIds.push(response.body.data.jobId);
          await new Promise((resolve) => setTimeout(resolve, 100));
          return response;
        },
        // Last: the readiness probe, as an orchestrator polls it.
        () => pollReadiness(client, '/readyz'),
      ],
      ready: () => new Promise((resolve) => setTimeout(resolve, 1500)),
    });
    expectOutageAnswered(report);

    // Every accepted job ends, once: no take-over, no second run.
    expect(jobIds.length).toBeGreaterThan(5);
    const ends = await eventually(async () => {
      const jobs = await Promise.all(jobIds.map(async (id) => (await client.get(`/jobs/${id}`)).body.data));
      return jobs.every((job) => job.status === 'success' || job.status === 'failure') ? jobs : undefined;
    }, 60_000);
    const outputs = new Map<number, string>();
    for (const job of ends) {
      const output = ((await client.get(`/jobs/${job.id}/status`)).body.data as { output: string }[])
        .map((row) => row.output)
        .join('\n');
      outputs.set(job.id, output);
      expect(output, `job ${job.id}`).not.toMatch(/Resuming on worker|stopped responding/);
    }
    const instances = await manager.database.db.selectFrom('dummy_instances').select(['hostname']).execute();
    const hostnames = instances.map((row) => row.hostname);
    expect(new Set(hostnames).size).toBe(hostnames.length);
    const failed = ends.filter((job) => job.status !== 'success').map((job) => outputs.get(job.id));
    expect(ends.length - failed.length, failed.join('\n---\n')).toBe(hostnames.length);
  }, 120_000);
});
