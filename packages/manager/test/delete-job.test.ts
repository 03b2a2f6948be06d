import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '@app/server-kit/testing';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, siteInput, startFleetManager } from './fleet-helpers.ts';
import { createAndWait, jobOutputs } from './container-helpers.ts';

const DELETE = 'container.delete';

describe(`container delete is a job (${testDialect()})`, () => {
  let test: TestManager;
  let owner: ManagerClient;
  let siteId: number;
  let base: string;

  const db = () => test.manager.database.db;
  const worker = () => test.manager.services.worker;
  /** Runs `work` with the worker stopped until `work` starts it again, and starts it whatever happens. */
  const withWorkerStopped = async (work: () => Promise<void>) => {
    await worker().stop(0);
    try {
      await work();
    } finally {
      worker().start();
    }
  };
  const create = async (hostname: string) => {
    const { status, container } = await createAndWait(owner, siteId, { hostname, template: 'debian:12' });
    expect(status).toBe('success');
    return container as { id: number; containerId: string };
  };
  const deleteJobs = (containerId: number) =>
    db()
      .selectFrom('jobs')
      .selectAll()
      .where('command', '=', DELETE)
      .where('container_id', '=', containerId)
      .orderBy('id')
      .execute();
  const renameInstance = (vmid: string, hostname: string) =>
    db().updateTable('dummy_instances').set({ hostname }).where('vmid', '=', Number(vmid)).execute();
  const instance = (vmid: string) =>
    db().selectFrom('dummy_instances').selectAll().where('vmid', '=', Number(vmid)).executeTakeFirst();

  beforeAll(async () => {
    test = await startFleetManager();
    const admin = await adminClient(test);
    owner = await userClient(test, admin, 'dora');
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    base = `/sites/${siteId}/containers`;
  });
  afterAll(() => test.close());

  it("is listed in the container's jobs with its output, and the answer is the job's result", async () => {
    const container = await create('gone1');
    await renameInstance(container.containerId, 'someone-else');
    const refused = await owner.delete(`${base}/${container.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('hostname_mismatch');
    const listed = (await owner.get(`${base}/${container.id}/jobs`)).body.data as {
      command: string;
      status: string;
      lastOutput: string[] | null;
    }[];
    expect(listed[0]).toMatchObject({ command: DELETE, status: 'failure' });
    expect(listed[0]!.lastOutput!.join('\n')).toContain('"someone-else", not "gone1"; deletion aborted');

    await renameInstance(container.containerId, 'gone1');
    const deleted = await owner.delete(`${base}/${container.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    const [failed, done] = await deleteJobs(container.id);
    expect(failed!.status).toBe('failure');
    expect(done!.status).toBe('success');
    expect(deleted.body.data).toEqual(JSON.parse(done!.result!));
    expect(deleted.body.data).toEqual({ deleted: true, dnsWarnings: [], keptVolumes: [] });
    expect(await instance(container.containerId)).toBeUndefined();
    expect(await jobOutputs(owner, done!.id)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Deleting instance /), 'Deleted the record of gone1.']),
    );
    // The container is gone, so is its jobs list; each job stays readable by its creator.
    expect((await owner.get(`${base}/${container.id}/jobs`)).status).toBe(404);
    expect((await owner.get(`/jobs/${done!.id}`)).body.data).toMatchObject({ command: DELETE });
  });

  it('a second DELETE while one is queued joins its job; both hear the outcome from the worker', async () => {
    const container = await create('gone2');
    await withWorkerStopped(async () => {
      const first = owner.delete(`${base}/${container.id}`);
      await eventually(async () => (await deleteJobs(container.id)).length === 1);
      const second = owner.delete(`${base}/${container.id}`);
      // Both requests wait on the one queued job.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await deleteJobs(container.id)).map((job) => job.status)).toEqual(['pending']);
      worker().start();
      const answers = await Promise.all([first, second]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(answers[1]!.body).toEqual(answers[0]!.body);
      expect((await deleteJobs(container.id)).map((job) => job.status)).toEqual(['success']);
    });
  });

  it('a delete whose worker died is taken over and finishes; the waiting request gets its answer', async () => {
    const container = await create('gone3');
    await withWorkerStopped(async () => {
      const answer = owner.delete(`${base}/${container.id}`);
      await eventually(async () => (await deleteJobs(container.id)).length === 1);
      // A worker claims it with a lease it never renews, as one that died at once.
      const claimed = await test.manager.services.jobs.repo.claim('dead-worker', [DELETE], 1);
      expect(claimed?.command).toBe(DELETE);
      await new Promise((resolve) => setTimeout(resolve, 20));
      worker().start();
      const deleted = await answer;
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body.data.deleted).toBe(true);
      const [job] = await deleteJobs(container.id);
      expect(job).toMatchObject({ status: 'success', attempts: 2 });
      expect(await jobOutputs(owner, job!.id)).toContain(
        'The worker running this job stopped responding; the job was queued again.',
      );
      expect(await instance(container.containerId)).toBeUndefined();
      expect((await owner.get(`${base}/${container.id}`)).status).toBe(404);
    });
  });

  it('a DELETE whose client went away still deletes the container', async () => {
    const container = await create('gone4');
    await withWorkerStopped(async () => {
      const request = http.request(`${test.baseUrl}/api/v1${base}/${container.id}`, {
        method: 'DELETE',
        headers: { ...owner.defaultHeaders, cookie: `connect.sid=${owner.cookie('connect.sid')}` },
      });
      request.on('error', () => undefined);
      request.end();
      await eventually(async () => (await deleteJobs(container.id)).length === 1);
      request.destroy();
      worker().start();
      await eventually(async () => (await deleteJobs(container.id))[0]!.status === 'success');
      expect((await owner.get(`${base}/${container.id}`)).status).toBe(404);
      expect(await instance(container.containerId)).toBeUndefined();
    });
  });
});

describe(`container delete on shutdown (${testDialect()})`, () => {
  it('a DELETE still waiting when the manager stops answers 503 instead of holding the server open', async () => {
    const test = await startFleetManager();
    const admin = await adminClient(test);
    const siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    const { container } = await createAndWait(admin, siteId, { hostname: 'late1', template: 'debian:12' });
    await test.manager.services.worker.stop(0);
    const answer = admin.delete(`/sites/${siteId}/containers/${container.id}`);
    const job = await eventually(() =>
      test.manager.database.db
        .selectFrom('jobs')
        .selectAll()
        .where('command', '=', DELETE)
        .executeTakeFirst(),
    );
    expect(job.status).toBe('pending');
    const stopping = test.close();
    const refused = await answer;
    await stopping;
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('service_unavailable');
  });
});
