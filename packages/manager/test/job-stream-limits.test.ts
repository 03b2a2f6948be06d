import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, readSse, startFleetManager } from './fleet-helpers.ts';

/** Job streams are capped per user and in all, so one account cannot pile up open sockets. */
describe('job stream limits', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let alice: ManagerClient;
  const jobs = { admin: 0, alice: 0 };
  const aborts: AbortController[] = [];

  beforeAll(async () => {
    test = await startFleetManager({ JOB_STREAMS_PER_USER: '2', JOB_STREAMS_MAX: '3' });
    admin = await adminClient(test);
    alice = await userClient(test, admin, 'alice');
    // Jobs nobody runs stay pending, so their streams stay open.
    const uids = (await admin.get('/users')).body.data as { uid: string; uidNumber: number }[];
    const uidOf = (uid: string) => uids.find((user) => user.uid === uid)!.uidNumber;
    jobs.admin = (await test.manager.services.jobs.enqueue('nobody.handles.this', {}, uidOf('admin'))).id;
    jobs.alice = (await test.manager.services.jobs.enqueue('nobody.handles.this', {}, uidOf('alice'))).id;
  });
  afterAll(async () => {
    for (const abort of aborts) abort.abort();
    await test.close();
  });

  const url = (who: keyof typeof jobs) => `${test.baseUrl}/api/v1/jobs/${jobs[who]}/stream`;
  const headers = (client: ManagerClient) => ({ cookie: `connect.sid=${client.cookie('connect.sid')}` });
  const open = async (who: keyof typeof jobs, client: ManagerClient) => {
    const abort = new AbortController();
    aborts.push(abort);
    const before = test.manager.services.jobStreams.size;
    void readSse(url(who), headers(client), { signal: abort.signal }).catch(() => undefined);
    await eventually(async () => test.manager.services.jobStreams.size === before + 1);
    return abort;
  };
  const refused = async (who: keyof typeof jobs, client: ManagerClient) => {
    const response = await fetch(url(who), { headers: headers(client) });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    return ((await response.json()) as { error: { code: string; message: string } }).error;
  };

  it('refuses a user past their open streams, and everyone past the total, with 429 in the envelope', async () => {
    const first = await open('admin', admin);
    await open('admin', admin);
    expect(await refused('admin', admin)).toMatchObject({ code: 'too_many_streams' });

    // Alice has her own allowance, up to the total of three.
    await open('alice', alice);
    expect((await refused('alice', alice)).message).toMatch(/server/);

    // A closed stream frees its place.
    first.abort();
    await eventually(async () => test.manager.services.jobStreams.size === 2);
    await open('alice', alice);
  });
});
