import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, uidNumberOf, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, readSse, siteInput, startFleetManager } from './fleet-helpers.ts';
import { INSTANCE_COMMANDS } from '../src/providers/provider-jobs.ts';
import { pause } from '../src/providers/pause.ts';

const spec = (hostname: string) => ({
  hostname,
  image: 'debian:12',
  macAddress: 'BC:24:11:00:00:01',
  entrypoint: null,
  environment: {},
  nvidia: false,
  resources: { cores: 1, memoryMb: 512, swapMb: 0, rootfsGb: 4 },
});

/** A latch a test handler waits on. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('jobs: endpoints, worker and SSE stream', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let alice: ManagerClient;
  let bob: ManagerClient;
  let nodeId: number;
  const gates = new Map<string, ReturnType<typeof gate>>();
  let peakRunning = 0;

  beforeAll(async () => {
    test = await startFleetManager({ SSE_KEEPALIVE_S: '1', JOB_CONCURRENCY: '2' });
    admin = await adminClient(test);
    alice = await userClient(test, admin, 'alice');
    bob = await userClient(test, admin, 'bob');
    const site = await admin.post('/sites', siteInput());
    nodeId = (await admin.post(`/sites/${site.body.data.id}/nodes`, { name: 'sim', nodeType: 'dummy' })).body
      .data.id;
    const { jobHandlers, worker } = test.manager.services;
    jobHandlers.register<{ gate: string; lines: number }>('test.gated', {
      async run(payload, ctx) {
        peakRunning = Math.max(peakRunning, worker.activeJobs.length);
        for (let i = 1; i <= payload.lines; i++) await ctx.log(`before ${i}`);
        await Promise.race([gates.get(payload.gate)!.opened, pause(60_000, ctx.signal)]);
        await ctx.log('after gate');
      },
    });
    jobHandlers.register<{ message: string }>('test.fail', {
      async run(payload) {
        throw new Error(payload.message);
      },
    });
    jobHandlers.register('test.slow', {
      timeoutMs: 200,
      async run(_payload, ctx) {
        await pause(10_000, ctx.signal);
      },
    });
  });
  afterAll(() => test.close());

  const enqueue = async (command: string, payload: unknown, by = 'alice') =>
    test.manager.services.jobs.enqueue(command, payload, await uidNumberOf(test, by));
  const waitFor = (id: number, status: string) =>
    eventually(async () => (await test.manager.services.jobs.repo.statusOf(id)) === status);
  const sse = (client: ManagerClient, path: string, headers: Record<string, string> = {}) =>
    readSse(`${client.baseUrl}${path}`, {
      cookie: `connect.sid=${client.cookie('connect.sid')}`,
      ...headers,
    });

  it('runs a dummy create: output rows in order, success, instance running on the node', async () => {
    const job = await enqueue(INSTANCE_COMMANDS.create, { nodeId, spec: spec('web1') });
    await waitFor(job.id, 'success');
    const shown = await alice.get(`/jobs/${job.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual({
      id: job.id,
      command: 'instance.create',
      status: 'success',
      createdBy: 'alice',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const rows = (await alice.get(`/jobs/${job.id}/status`)).body.data as Array<{
      id: number;
      jobId: number;
      output: string;
    }>;
    expect(rows[0]).toEqual({
      id: expect.any(Number),
      jobId: job.id,
      output: expect.stringContaining('Allocating'),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(rows.map((row) => row.output)).toContain('TASK OK');
    expect(rows.map((row) => row.id)).toEqual([...rows.map((row) => row.id)].sort((a, b) => a - b));
    const node = await test.manager.services.nodes.connectionById(nodeId);
    const status = await test.manager.services.providers.instances(node);
    expect(status.reachable && [...status.instances.values()]).toEqual([
      { containerId: '100', hostname: 'web1', state: 'running' },
    ]);
  });

  it('shows a job to its creator and admins only; 404 for others and for unknown ids', async () => {
    const job = await enqueue('test.fail', { message: 'x' });
    expect((await admin.get(`/jobs/${job.id}`)).status).toBe(200);
    for (const path of [`/jobs/${job.id}`, `/jobs/${job.id}/status`, `/jobs/${job.id}/stream`]) {
      const response = await bob.get(path);
      expect(response.status, path).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await bob.post(`/jobs/${job.id}/cancel`)).status).toBe(404);
    expect((await alice.get('/jobs/99999')).status).toBe(404);
    expect((await test.client().get(`/jobs/${job.id}`)).status).toBe(401);
  });

  it('pages job output with offset and limit (max 1000) and rejects values out of range', async () => {
    const job = await enqueue('test.gated', { gate: 'paging', lines: 5 });
    gates.set('paging', gate());
    gates.get('paging')!.open();
    await waitFor(job.id, 'success');
    const page = await alice.get(`/jobs/${job.id}/status?offset=1&limit=2`);
    expect(page.body.data.map((row: { output: string }) => row.output)).toEqual(['before 2', 'before 3']);
    expect((await alice.get(`/jobs/${job.id}/status`)).body.data).toHaveLength(6);
    for (const query of ['limit=1001', 'limit=0', 'offset=-1', 'offset=abc']) {
      const response = await alice.get(`/jobs/${job.id}/status?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    }
  });

  it('records a failing handler as failure with its error in the output', async () => {
    const job = await enqueue('test.fail', { message: 'disk on fire' });
    await waitFor(job.id, 'failure');
    const rows = (await alice.get(`/jobs/${job.id}/status`)).body.data;
    expect(rows.at(-1).output).toBe('Error: disk on fire');
  });

  it('stops a job that runs past its timeout', async () => {
    const job = await enqueue('test.slow', {});
    await waitFor(job.id, 'failure');
    const rows = (await alice.get(`/jobs/${job.id}/status`)).body.data;
    expect(rows.at(-1).output).toMatch(/ran longer than/);
  });

  it('streams stored rows, then live rows as they are written, then one status event', async () => {
    gates.set('live', gate());
    const job = await enqueue('test.gated', { gate: 'live', lines: 3 });
    await eventually(
      async () => (await test.manager.services.jobs.repo.rows(job.id, { limit: 10 })).length === 3,
    );
    const reading = sse(alice, `/jobs/${job.id}/stream`);
    await eventually(async () => test.manager.services.jobStreams.size > 0);
    gates.get('live')!.open();
    const { status, events, contentType } = await reading;
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/event-stream/);
    const logs = events.filter((event) => event.event === 'log');
    expect(logs.map((event) => JSON.parse(event.data).output)).toEqual([
      'before 1',
      'before 2',
      'before 3',
      'after gate',
    ]);
    for (const event of logs) {
      const data = JSON.parse(event.data);
      expect(data).toEqual({
        id: Number(event.id),
        output: expect.any(String),
        timestamp: expect.any(String),
      });
    }
    expect(events.at(-1)).toEqual({ event: 'status', data: JSON.stringify({ status: 'success' }) });
    expect(events.filter((event) => event.event === 'status')).toHaveLength(1);
  });

  it('resumes after lastId or Last-Event-ID', async () => {
    const job = await enqueue('test.gated', { gate: 'paging', lines: 4 });
    await waitFor(job.id, 'success');
    const rows = (await alice.get(`/jobs/${job.id}/status`)).body.data as Array<{
      id: number;
      output: string;
    }>;
    const fromQuery = await sse(alice, `/jobs/${job.id}/stream?lastId=${rows[1]!.id}`);
    expect(fromQuery.events.filter((e) => e.event === 'log').map((e) => Number(e.id))).toEqual(
      rows.slice(2).map((row) => row.id),
    );
    const fromHeader = await sse(alice, `/jobs/${job.id}/stream`, { 'last-event-id': String(rows[3]!.id) });
    expect(fromHeader.events.map((e) => e.event)).toEqual(['log', 'status']);
    expect(Number(fromHeader.events[0]!.id)).toBe(rows[4]!.id);
    const atEnd = await sse(admin, `/jobs/${job.id}/stream?lastId=${rows.at(-1)!.id}`);
    expect(atEnd.events).toEqual([{ event: 'status', data: '{"status":"success"}' }]);
  });

  it('sends keep-alive comments while a job is quiet', async () => {
    gates.set('quiet', gate());
    const job = await enqueue('test.gated', { gate: 'quiet', lines: 0 });
    setTimeout(() => gates.get('quiet')!.open(), 2300);
    const { comments, events } = await sse(alice, `/jobs/${job.id}/stream`);
    expect(comments.filter((comment) => comment === 'keep-alive').length).toBeGreaterThanOrEqual(1);
    expect(events.at(-1)!.data).toBe('{"status":"success"}');
  });

  it('cancels a running job (its handler is aborted, the stream ends with cancelled) and refuses a finished one', async () => {
    gates.set('never', gate());
    const job = await enqueue('test.gated', { gate: 'never', lines: 1 });
    await waitFor(job.id, 'running');
    const reading = sse(alice, `/jobs/${job.id}/stream`);
    await eventually(async () => test.manager.services.jobStreams.size > 0);
    const cancelled = await alice.post(`/jobs/${job.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id: job.id, status: 'cancelled' });
    const { events } = await reading;
    expect(events.at(-1)).toEqual({ event: 'status', data: '{"status":"cancelled"}' });
    await eventually(async () => !test.manager.services.worker.activeJobs.includes(job.id));
    expect(await test.manager.services.jobs.repo.statusOf(job.id)).toBe('cancelled');
    const again = await alice.post(`/jobs/${job.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('job_finished');
  });

  it('cancels a pending job before any worker takes it', async () => {
    const job = await enqueue('test.unknown-command', {});
    const response = await admin.post(`/jobs/${job.id}/cancel`);
    expect(response.body.data.status).toBe('cancelled');
  });

  it('runs no more jobs at once than the concurrency cap', async () => {
    peakRunning = 0;
    gates.set('cap', gate());
    const jobs = await Promise.all([1, 2, 3, 4].map(() => enqueue('test.gated', { gate: 'cap', lines: 0 })));
    await eventually(async () => test.manager.services.worker.activeJobs.length === 2);
    await pause(300, new AbortController().signal);
    expect(test.manager.services.worker.activeJobs.length).toBe(2);
    gates.get('cap')!.open();
    for (const job of jobs) await waitFor(job.id, 'success');
    expect(peakRunning).toBe(2);
  });

  it("holds the exec lane's shares while workers claim at once, each on its own database connection", async () => {
    const { repo } = test.manager.services.jobs;
    const [bob, alice] = [await uidNumberOf(test, 'bob'), await uidNumberOf(test, 'alice')];
    // Three of Bob's on each of three containers, two of Alice's on a fourth. No handler runs
    // `test.fair`: only the claims below take these jobs.
    const owners = [
      ...[901, 902, 903].flatMap((id) => [
        [bob, id],
        [bob, id],
        [bob, id],
      ]),
      [alice, 904],
      [alice, 904],
    ];
    const queued: number[] = [];
    for (const [uid, containerId] of owners) {
      const job = await repo.queueInLane('exec', 'test.fair', uid!, { containerId });
      if (!('id' in job)) throw new Error(`refused: ${JSON.stringify(job)}`);
      queued.push(job.id);
    }
    const claims = await Promise.all(queued.map((_, n) => repo.claim(`racer-${n}`, ['test.fair'], 60_000)));
    const containers = claims.flatMap((job) =>
      job ? [(job.payload as { containerId: number }).containerId] : [],
    );
    // Bob runs his share of two, on two containers (one each); Alice one (her container's share).
    expect(containers.filter((id) => id === 904)).toHaveLength(1);
    const bobs = containers.filter((id) => id !== 904);
    expect(bobs).toHaveLength(2);
    expect(new Set(bobs).size).toBe(2);
    expect(claims.filter(Boolean).map((job) => job!.lane)).toEqual(['exec', 'exec', 'exec']);
    for (const id of queued) await repo.cancel(id);
  });
});

describe('jobs: shutdown', () => {
  it('ends open streams when the manager closes, without hanging', async () => {
    const test = await startFleetManager({ JOB_SHUTDOWN_GRACE_MS: '100' });
    const admin = await adminClient(test);
    const job = await test.manager.services.jobs.enqueue(
      'nobody.handles.this',
      {},
      await uidNumberOf(test, 'admin'),
    );
    const reading = readSse(`${admin.baseUrl}/jobs/${job.id}/stream`, {
      cookie: `connect.sid=${admin.cookie('connect.sid')}`,
    });
    await eventually(async () => test.manager.services.jobStreams.size > 0);
    const started = Date.now();
    await test.close();
    expect(Date.now() - started).toBeLessThan(3000);
    const { events } = await reading;
    expect(events.filter((event) => event.event === 'status')).toHaveLength(0);
  });
});
