import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, uidNumberOf, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, readSse, startFleetManager, type SseEvent } from './fleet-helpers.ts';
import { killChild, startWorkerChild } from './worker-child.ts';

describe('a worker process killed in the middle of a job', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    test = await startFleetManager({ JOB_LEASE_S: '1', JOB_HEARTBEAT_MS: '200' });
    admin = await adminClient(test);
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await test.close();
  });

  it('is recovered: a retryable job is finished by another worker, a fragile one is failed, and streams see the end', async () => {
    const { jobs, jobHandlers } = test.manager.services;
    // This process has no handler for these commands yet, so only the child can take them.
    const adminUid = await uidNumberOf(test, 'admin');
    const retryable = await jobs.enqueue('crash.retryable', {}, adminUid);
    const fragile = await jobs.enqueue('crash.fragile', {}, adminUid);
    child = await startWorkerChild(test);

    const cookie = { cookie: `connect.sid=${admin.cookie('connect.sid')}` };
    const seen: Record<number, SseEvent[]> = { [retryable.id]: [], [fragile.id]: [] };
    const streams = [retryable.id, fragile.id].map((id) =>
      readSse(`${admin.baseUrl}/jobs/${id}/stream`, cookie, {
        stop: (event) => {
          seen[id]!.push(event);
          return event.event === 'status';
        },
      }),
    );
    // Live rows from the other process reach this process's streams (NOTIFY on PostgreSQL, re-read on SQLite).
    await eventually(async () => seen[retryable.id]!.length >= 3 && seen[fragile.id]!.length >= 3, 15_000);
    await killChild(child);
    child = undefined;

    jobHandlers.register('crash.retryable', {
      retryOnTakeover: true,
      async run(_payload, ctx) {
        await ctx.log('finished by the surviving worker');
      },
    });
    jobHandlers.register('crash.fragile', {
      async run() {
        throw new Error('must not run again');
      },
    });
    test.manager.services.worker.wake();

    const results = await Promise.all(streams);
    const first = results[0]!;
    const second = results[1]!;
    expect(first.events.at(-1)).toEqual({ event: 'status', data: '{"status":"success"}' });
    expect(second.events.at(-1)).toEqual({ event: 'status', data: '{"status":"failure"}' });
    const outputs = first.events
      .filter((e) => e.event === 'log')
      .map((e) => JSON.parse(e.data).output as string);
    expect(outputs[0]).toBe('child step 1');
    expect(outputs).toContain('The worker running this job stopped responding; the job was queued again.');
    expect(outputs.at(-1)).toBe('finished by the surviving worker');
    const ids = first.events.filter((e) => e.event === 'log').map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const fragileRows = (await admin.get(`/jobs/${fragile.id}/status`)).body.data as Array<{
      output: string;
    }>;
    expect(fragileRows.at(-1)!.output).toBe(
      'Error: the worker running this job stopped responding; the job failed.',
    );
    expect(fragileRows.some((row) => row.output.includes('must not run again'))).toBe(false);
  });
});
