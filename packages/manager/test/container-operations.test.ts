import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagerClient, TestManager } from './helpers.ts';
import { eventually, siteInput, startFleetManager } from './fleet-helpers.ts';
import { containerPeople, execOutput, insertContainer, jobEnds, jobOutputs } from './container-helpers.ts';

// Each step of the dummy node takes 200 ms here, not the suite's usual 5: a start or stop must still be
// running when the next request arrives, or the one-at-a-time checks race the job worker under load.
describe('container start, stop and exec (dummy node)', { timeout: 30_000 }, () => {
  let test: TestManager;
  let admin: ManagerClient;
  let owner: ManagerClient;
  let collab: ManagerClient;
  let other: ManagerClient;
  let ownerKey: ManagerClient;
  let siteId: number;
  let base: string;

  const create = async (hostname: string) => {
    const response = await owner.post(base, { hostname, template: 'debian:12', collaborators: ['colin'] });
    expect(response.status, response.text).toBe(201);
    expect(await jobEnds(owner, response.body.data.jobId)).toBe('success');
    return `${base}/${response.body.data.containerId as number}`;
  };
  const statusOf = async (url: string) => (await owner.get(url)).body.data.status as string;
  /** Queues the operation and waits for its job: its status and output. */
  const run = async (client: ManagerClient, url: string, body?: unknown) => {
    const response = await client.post(url, body);
    expect(response.status, response.text).toBe(202);
    const { jobId } = response.body.data as { jobId: number };
    return { jobId, status: await jobEnds(client, jobId), output: await jobOutputs(client, jobId) };
  };
  /** Queues `command` (run by `sh -c`) in the container at `url`: its job. */
  const queueExec = async (client: ManagerClient, url: string, command: string) => {
    const response = await client.post(`${url}/exec`, { command });
    expect(response.status, response.text).toBe(202);
    return response.body.data.jobId as number;
  };
  const jobStatus = async (client: ManagerClient, jobId: number) =>
    (await client.get(`/jobs/${jobId}`)).body.data.status as string;
  const becomes = (client: ManagerClient, jobId: number, status: string) =>
    eventually(async () => (await jobStatus(client, jobId)) === status);

  beforeAll(async () => {
    test = await startFleetManager({ DUMMY_STEP_MS: '200' });
    ({ admin, owner, collab, other } = await containerPeople(test));
    ownerKey = test.client();
    ownerKey.defaultHeaders.authorization = `Bearer ${(await owner.post('/apikeys', { description: 'ci' })).body.data.key as string}`;
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    base = `/sites/${siteId}/containers`;
  });
  afterAll(() => test.close());

  it('stop makes the container offline, start makes it running, each a job of the container with its output', async () => {
    const url = await create('power1');
    expect(await statusOf(url)).toBe('running');

    const stopped = await run(owner, `${url}/stop`);
    expect(stopped.status).toBe('success');
    expect(stopped.output).toContain('Stopping container 100');
    expect(await statusOf(url)).toBe('offline');

    const started = await run(owner, `${url}/start`);
    expect(started.status).toBe('success');
    expect(started.output).toContain('Starting container 100');
    expect(await statusOf(url)).toBe('running');

    const jobs = (await owner.get(`${url}/jobs`)).body.data as Array<{ id: number; command: string }>;
    expect(jobs.slice(0, 2).map((job) => [job.id, job.command])).toEqual([
      [started.jobId, 'container.start'],
      [stopped.jobId, 'container.stop'],
    ]);
  });

  it('a start of a running container and a stop of a stopped one succeed with nothing done', async () => {
    const url = await create('power2');
    const start = await run(owner, `${url}/start`);
    expect(start.status).toBe('success');
    expect(start.output).toEqual(['power2 is already running; nothing to do.']);
    await run(owner, `${url}/stop`);
    const stop = await run(admin, `${url}/stop`);
    expect(stop.status).toBe('success');
    expect(stop.output).toEqual(['power2 is already stopped; nothing to do.']);
    expect(await statusOf(url)).toBe('offline');
  });

  it('one start, stop or restart at a time per container: 409 conflict while one is queued or running', async () => {
    const url = await create('power3');
    const first = await owner.post(`${url}/stop`);
    expect(first.status).toBe(202);
    for (const second of [owner.post(`${url}/start`), admin.post(`${url}/stop`)]) {
      const refused = await second;
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('conflict');
    }
    await jobEnds(owner, first.body.data.jobId);
    // Requests racing each other: one queues its job, the others are refused (a unique index judges).
    const racing = await Promise.all(
      ['start', 'start', 'start', 'start'].map((a) => owner.post(`${url}/${a}`)),
    );
    expect(racing.map((response) => response.status).sort()).toEqual([202, 409, 409, 409]);
    await jobEnds(owner, racing.find((response) => response.status === 202)!.body.data.jobId);
    // A restart (PUT restart:true) running blocks a stop the same way.
    const restart = await owner.put(url, { restart: true });
    expect((await owner.post(`${url}/stop`)).body.error?.code).toBe('conflict');
    await jobEnds(owner, restart.body.data.jobId);
    expect((await owner.post(`${url}/stop`)).status).toBe(202);
  });

  it('start and stop: owner and admin only; collaborators 403, others 404; no instance 409', async () => {
    const url = await create('power4');
    for (const action of ['start', 'stop']) {
      expect((await collab.post(`${url}/${action}`)).body.error.code).toBe('forbidden');
      expect((await other.post(`${url}/${action}`)).status).toBe(404);
      expect((await other.post(`${base}/999999/${action}`)).status).toBe(404);
    }
    const nodeId = (await admin.get(`/sites/${siteId}/nodes`)).body.data[0].id as number;
    const bare = await insertContainer(test, {
      hostname: 'bare1',
      nodeId,
      containerId: 'gone',
      owner: 'olga',
    });
    await test.manager.database.db
      .updateTable('containers')
      .set({ container_id: null })
      .where('id', '=', bare)
      .execute();
    const refused = await owner.post(`${base}/${bare}/start`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('no_instance');
  });

  it('exec runs a command: its output lines, exit code 0 in the result, the job a success', async () => {
    const url = await create('exec1');
    const done = await run(owner, `${url}/exec`, { command: ['echo', 'hello', 'world'] });
    expect(done.status).toBe('success');
    expect(done.output).toEqual(execOutput('echo hello world', ['hello world'], { exitCode: 0 }));
    const job = (await owner.get(`/jobs/${done.jobId}`)).body.data;
    expect(job).toMatchObject({ command: 'container.exec', status: 'success', result: { exitCode: 0 } });
  });

  it("exec of `sh -c 'exit 3'` (API key, string command): exit code 3, the job failed, the output before it kept", async () => {
    const url = await create('exec2');
    const done = await run(ownerKey, `${url}/exec`, { command: 'echo before; exit 3' });
    expect(done.status).toBe('failure');
    expect(done.output).toEqual(execOutput("sh -c 'echo before; exit 3'", ['before'], { exitCode: 3 }));
    expect((await ownerKey.get(`/jobs/${done.jobId}`)).body.data.result).toEqual({ exitCode: 3 });
  });

  it('exec past its timeout is stopped: a clear line, the job failed, no exit code', async () => {
    const url = await create('exec3');
    const done = await run(admin, `${url}/exec`, {
      command: ['sh', '-c', 'echo going; sleep 30'],
      timeout: 1,
    });
    expect(done.status).toBe('failure');
    expect(done.output).toEqual(execOutput("sh -c 'echo going; sleep 30'", ['going'], { timeoutSeconds: 1 }));
    expect((await admin.get(`/jobs/${done.jobId}`)).body.data.result).toBeUndefined();
  });

  it('exec in a stopped container fails its job with the node’s words', async () => {
    const url = await create('exec4');
    await run(owner, `${url}/stop`);
    const done = await run(owner, `${url}/exec`, { command: ['true'] });
    expect(done.status).toBe('failure');
    expect(done.output.at(-1)).toMatch(/^Error: CT \d+ not running$/);
  });

  it('exec: owner, owner API key and admin only; collaborators never; validation and timeout bounds', async () => {
    const url = await create('exec5');
    const ok = { command: ['true'] };
    expect((await owner.post(`${url}/exec`, ok)).status).toBe(202);
    expect((await ownerKey.post(`${url}/exec`, ok)).status).toBe(202);
    expect((await admin.post(`${url}/exec`, ok)).status).toBe(202);
    const refused = await collab.post(`${url}/exec`, ok);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await other.post(`${url}/exec`, ok)).status).toBe(404);
    expect((await test.client().post(`${url}/exec`, ok)).status).toBe(401);
    for (const body of [
      {},
      { command: [] },
      { command: '' },
      { command: ['', 'x'] },
      { command: ['true'], timeout: 0 },
      { command: ['true'], timeout: 3601 },
      { command: ['true'], timeout: 1.5 },
    ]) {
      const invalid = await owner.post(`${url}/exec`, body);
      expect(invalid.status, JSON.stringify(body)).toBe(400);
      expect(invalid.body.error.code).toBe('invalid_request');
    }
  });

  it("execs get a fair share of the worker: one running per container, two per user; another user's exec and a create still run", async () => {
    const [c1, c2, c3] = await Promise.all([create('fair1'), create('fair2'), create('fair3')]);
    const made = await other.post(base, { hostname: 'fair4', template: 'debian:12' });
    expect(await jobEnds(other, made.body.data.jobId)).toBe('success');
    const d1 = `${base}/${made.body.data.containerId as number}`;

    const long1 = await queueExec(owner, c1, 'sleep 30');
    await becomes(owner, long1, 'running');
    const behind1 = [await queueExec(owner, c1, 'echo one'), await queueExec(owner, c1, 'echo two')];
    // Her second container does not wait behind the first one's queue.
    const long2 = await queueExec(owner, c2, 'sleep 30');
    await becomes(owner, long2, 'running');
    expect(await jobStatus(owner, behind1[0]!)).toBe('pending');
    // Two of hers run: her next one waits, and oscar's, queued after it, runs.
    const behind3 = await queueExec(owner, c3, 'echo three');
    const long3 = await queueExec(other, d1, 'sleep 30');
    await becomes(other, long3, 'running');
    expect(await jobStatus(owner, behind3)).toBe('pending');
    // Every exec slot (JOB_CONCURRENCY 4 leaves 3) is taken: the administrator's waits, a create runs.
    const long4 = await queueExec(admin, c3, 'sleep 30');
    const created = await other.post(base, { hostname: 'fair5', template: 'debian:12' });
    expect(await jobEnds(other, created.body.data.jobId)).toBe('success');
    expect(await jobStatus(owner, long1)).toBe('running');
    expect(await jobStatus(owner, long2)).toBe('running');
    expect(await jobStatus(other, long3)).toBe('running');
    expect(await jobStatus(admin, long4)).toBe('pending');

    // As the long ones end, the waiting ones run, each in its turn; none is lost.
    expect((await owner.post(`/jobs/${long2}/cancel`)).status).toBe(200);
    expect(await jobEnds(owner, behind3)).toBe('success');
    expect(await jobStatus(owner, behind1[0]!)).toBe('pending');
    expect((await owner.post(`/jobs/${long1}/cancel`)).status).toBe(200);
    expect(await jobEnds(owner, behind1[0]!)).toBe('success');
    expect(await jobEnds(owner, behind1[1]!)).toBe('success');
    expect(await jobOutputs(owner, behind1[1]!)).toEqual(
      execOutput("sh -c 'echo two'", ['two'], { exitCode: 0 }),
    );
    expect((await other.post(`/jobs/${long3}/cancel`)).status).toBe(200);
    await becomes(admin, long4, 'running');
    expect((await admin.post(`/jobs/${long4}/cancel`)).status).toBe(200);
  });

  it('exec past 10 waiting or running in a container, or 20 of one user: 429 too_many_execs; the queued ones all run', async () => {
    const [c1, c2, c3] = await Promise.all([create('queue1'), create('queue2'), create('queue3')]);
    const long = [await queueExec(owner, c1, 'sleep 30'), await queueExec(owner, c2, 'sleep 30')];
    const queued: number[] = [];
    for (const url of [c1, c2]) for (let n = 0; n < 9; n++) queued.push(await queueExec(owner, url, 'true'));

    const refused = async (client: ManagerClient, url: string, held: string, cap: string) => {
      const response = await client.post(`${url}/exec`, { command: 'true' });
      expect(response.status).toBe(429);
      expect(response.body.error).toEqual({
        code: 'too_many_execs',
        message: `${held} commands waiting or running, the most one ${cap} may have: wait for one to end, or cancel one.`,
      });
    };
    await refused(owner, c1, 'queue1 has 10', 'container');
    await refused(ownerKey, c3, 'You have 20', 'user');
    // The cap is the caller's: an administrator's command in her third container is queued.
    expect(await jobEnds(admin, await queueExec(admin, c3, 'true'))).toBe('success');

    for (const id of long) expect((await owner.post(`/jobs/${id}/cancel`)).status).toBe(200);
    for (const id of queued) expect(await jobEnds(owner, id)).toBe('success');
    expect(await jobEnds(owner, await queueExec(owner, c1, 'true'))).toBe('success');
  });

  it('exec on a Proxmox VE node: 409 exec_unsupported, saying what to use instead', async () => {
    const pve = await admin.post(`/sites/${siteId}/nodes`, {
      name: 'pve1',
      nodeType: 'hypervisor',
      apiUrl: 'https://127.0.0.1:1',
      tokenId: 'root@pam!mgr',
      secret: 's3cret',
    });
    expect(pve.status, pve.text).toBe(201);
    const id = await insertContainer(test, {
      hostname: 'ct1',
      nodeId: pve.body.data.id,
      containerId: '100',
      owner: 'olga',
    });
    const refused = await owner.post(`${base}/${id}/exec`, { command: ['true'] });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'exec_unsupported',
      message:
        'Node pve1 (Proxmox VE) has no API to run a command in a container: run it over SSH to ct1, or from its console in Proxmox VE.',
    });
    await eventually(
      async () =>
        (await admin.delete(`/sites/${siteId}/nodes/${pve.body.data.id}`)).status !== 500 || undefined,
    );
  });
});
