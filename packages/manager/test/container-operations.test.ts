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
