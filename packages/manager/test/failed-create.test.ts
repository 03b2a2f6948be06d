import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, freePort, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';

interface ContainerJob {
  id: number;
  command: string;
  status: string;
  finishedAt: string | null;
  lastOutput: string[] | null;
}

/** A create on an engine node nobody answers for: what the owner sees and may do afterwards. */
describe('a failed create', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let owner: ManagerClient;
  let other: ManagerClient;
  let base: string;

  /** A container of olga's, made by the administrator, whose create job failed. */
  const failedContainer = async (hostname: string) => {
    const created = await admin.post(base, { hostname, template: 'app:1', username: 'olga' });
    expect(created.status, created.text).toBe(201);
    expect(await jobEnds(admin, created.body.data.jobId)).toBe('failure');
    return created.body.data as { containerId: number; jobId: number };
  };

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    owner = await userClient(test, admin, 'olga');
    other = await userClient(test, admin, 'oscar');
    const siteId = (await admin.post('/sites', siteInput())).body.data.id;
    const node = await admin.post(`/sites/${siteId}/nodes`, {
      name: 'gone1',
      nodeType: 'engine',
      apiUrl: `http://127.0.0.1:${await freePort()}`,
    });
    expect(node.status, node.text).toBe(201);
    base = `/sites/${siteId}/containers`;
  });
  afterAll(() => test?.close());

  it('shows the container as failed, with its job and the last lines of its log, to its owner', async () => {
    const { containerId, jobId } = await failedContainer('lost1');
    const container = await owner.get(`${base}/${containerId}`);
    expect(container.body.data).toMatchObject({ status: 'failed', creationJobId: jobId, containerId: null });
    const listed = (await owner.get(base)).body.data as Array<{ id: number; status: string }>;
    expect(listed.find((entry) => entry.id === containerId)?.status).toBe('failed');

    const jobs = await owner.get(`${base}/${containerId}/jobs`);
    expect(jobs.status, jobs.text).toBe(200);
    const [job] = jobs.body.data as ContainerJob[];
    expect(job).toMatchObject({ id: jobId, command: 'container.create', status: 'failure' });
    expect(job!.finishedAt).not.toBeNull();
    // What the node said is for the job's creator (here the administrator) and administrators.
    expect(job!.lastOutput).toBeNull();
    const [seenByAdmin] = (await admin.get(`${base}/${containerId}/jobs`)).body.data as ContainerJob[];
    expect(seenByAdmin!.lastOutput!.at(-1)).toMatch(/^Error: /);
    expect((await other.get(`${base}/${containerId}/jobs`)).status).toBe(404);
  });

  it('notifies the owner, without the node address', async () => {
    const { containerId, jobId } = await failedContainer('lost2');
    const notices = (await owner.get('/notifications?limit=100')).body.data as Array<{
      message: string;
      evidence: Record<string, unknown> | null;
      severity: string;
    }>;
    const notice = notices.find((entry) => entry.evidence?.containerId === containerId);
    expect(notice).toMatchObject({ severity: 'warning', evidence: { jobId } });
    expect(notice!.message).toContain(`Creating lost2 failed (job ${jobId})`);
    expect(notice!.message).not.toContain('127.0.0.1');
  });

  it('refuses a restart with 409 no_instance instead of answering that it was done', async () => {
    const { containerId } = await failedContainer('lost3');
    const restart = await owner.put(`${base}/${containerId}`, { restart: true });
    expect(restart.status, restart.text).toBe(409);
    expect(restart.body.error.code).toBe('no_instance');
    const jobs = (await owner.get(`${base}/${containerId}/jobs`)).body.data as ContainerJob[];
    expect(jobs.map((job) => job.command)).toEqual(['container.create']);
  });

  it('creates it again on retry, for the owner, and only while the create has failed', async () => {
    const { containerId, jobId } = await failedContainer('lost4');
    expect((await other.post(`${base}/${containerId}/retry`)).status).toBe(404);
    const retried = await owner.post(`${base}/${containerId}/retry`);
    expect(retried.status, retried.text).toBe(202);
    const newJob = retried.body.data.jobId as number;
    expect(retried.body.data).toMatchObject({ containerId, hostname: 'lost4', status: 'creating' });
    expect(newJob).not.toBe(jobId);
    expect((await owner.get(`${base}/${containerId}`)).body.data.creationJobId).toBe(newJob);
    expect(await jobEnds(owner, newJob)).toBe('failure');
    const jobs = (await owner.get(`${base}/${containerId}/jobs`)).body.data as ContainerJob[];
    expect(jobs.map((job) => job.id)).toEqual([newJob, jobId]);
    expect((await owner.get(`${base}/${containerId}`)).body.data.status).toBe('failed');
  });

  it('refuses a retry with 409 create_not_failed when the create succeeded', async () => {
    const siteId = (await admin.post('/sites', siteInput({ name: 'Sim' }))).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    const created = await admin.post(`/sites/${siteId}/containers`, {
      hostname: 'fine1',
      template: 'debian:12',
    });
    expect(await jobEnds(admin, created.body.data.jobId)).toBe('success');
    const retry = await admin.post(`/sites/${siteId}/containers/${created.body.data.containerId}/retry`);
    expect(retry.status, retry.text).toBe(409);
    expect(retry.body.error.code).toBe('create_not_failed');
  });

  it('deletes a failed container without asking its node', async () => {
    const { containerId } = await failedContainer('lost5');
    const deleted = await owner.delete(`${base}/${containerId}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await owner.get(`${base}/${containerId}`)).status).toBe(404);
  });
});
