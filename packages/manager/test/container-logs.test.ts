import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagerClient } from './helpers.ts';
import { eventually, readSse } from './fleet-helpers.ts';
import { dummySite, jobEnds, type DummySite } from './container-helpers.ts';

interface Line {
  time: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

const HOUR_MS = 3600_000;

/** Container logs on the simulated node: reading, filters, download, following, access and limits. */
describe('container logs (simulated node)', () => {
  let { test, admin, owner, collab, other, siteId } = {} as DummySite;
  let id: number;
  let url: string;
  /** When the instance was made (moved an hour back, so it has 3600 lines of history). */
  let origin: number;

  beforeAll(async () => {
    ({ test, admin, owner, collab, other, siteId } = await dummySite({
      CONTAINER_LOG_LINES_MAX: '500',
      CONTAINER_LOG_FOLLOWS_PER_USER: '2',
    }));
    const created = await owner.post(`/sites/${siteId}/containers`, {
      template: 'debian:12',
      hostname: 'web1',
      collaborators: ['colin'],
    });
    expect(created.status, created.text).toBe(201);
    await jobEnds(owner, created.body.data.jobId);
    id = created.body.data.containerId;
    url = `/sites/${siteId}/containers/${id}/logs`;
    origin = Math.floor((Date.now() - HOUR_MS) / 1000) * 1000;
    await test.manager.database.db
      .updateTable('dummy_instances')
      .set({ created_at: new Date(origin).toISOString() })
      .execute();
  });
  afterAll(() => test.close());

  const linesOf = async (client: ManagerClient, query = '') => {
    const response = await client.get(`${url}${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body.data as { lines: Line[]; truncated: boolean };
  };

  it('answers the last lines, oldest first, each with time, stream and text, cut at the bound', async () => {
    const { lines, truncated } = await linesOf(owner);
    expect(truncated).toBe(true);
    expect(lines).toHaveLength(500);
    expect(Object.keys(lines[0]!).sort()).toEqual(['stream', 'text', 'time']);
    const times = lines.map((line) => Date.parse(line.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Date.now() - times.at(-1)!).toBeLessThan(3000);
    expect(new Set(lines.map((line) => line.stream))).toEqual(new Set(['stdout', 'stderr']));
  });

  it('keeps one stream, the last `tail` lines, the lines matching `search`, and a since/until window', async () => {
    // The tail counts both streams (as engines do): one line in five is stderr.
    const stderr = await linesOf(owner, '?stream=stderr&tail=10');
    expect(stderr.lines).toHaveLength(2);
    expect(stderr.lines.every((line) => line.stream === 'stderr' && line.text.startsWith('warning:'))).toBe(
      true,
    );
    expect(stderr.truncated).toBe(false);

    const tail = await linesOf(owner, '?tail=3');
    expect(tail.lines).toHaveLength(3);

    // Line 10 to line 19 (one a second from the origin); `until` is exclusive of nothing after it.
    const since = new Date(origin + 10_000).toISOString();
    const until = new Date(origin + 19_000).toISOString();
    const window = await linesOf(owner, `?since=${since}&until=${until}`);
    expect(window.lines.map((line) => line.text)).toEqual(
      Array.from({ length: 10 }, (_, k) => 10 + k).map((n) =>
        n % 5 === 4
          ? `warning: slow request #${n} (1200 ms)`
          : expect.stringMatching(new RegExp(`^GET \\S+ 200 #${n}$`)),
      ),
    );

    const searched = await linesOf(owner, `?since=${since}&until=${until}&search=SLOW%20Request`);
    expect(searched.lines.map((line) => line.text)).toEqual([
      'warning: slow request #14 (1200 ms)',
      'warning: slow request #19 (1200 ms)',
    ]);
  });

  it('refuses a query that does not fit: until before since, an unknown stream, a zero tail', async () => {
    const since = new Date().toISOString();
    const until = new Date(Date.now() - 60_000).toISOString();
    for (const query of [`?since=${since}&until=${until}`, '?stream=stdin', '?tail=0', '?since=yesterday']) {
      const response = await owner.get(`${url}${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.code, query).toMatch(/invalid_request|validation_failed/);
    }
  });

  it('lets the owner, collaborators and admins read, and no one else', async () => {
    const statuses = [];
    for (const client of [owner, collab, other, admin])
      statuses.push((await client.get(`${url}?tail=1`)).status);
    expect(statuses).toEqual([200, 200, 404, 200]);
    expect((await other.get(`${url}/download`)).status).toBe(404);
    expect((await other.get(`${url}/stream`)).status).toBe(404);
    const anonymous = await fetch(`${test.baseUrl}/api/v1${url}`);
    expect(anonymous.status).toBe(401);
    expect((await owner.get(`/sites/${siteId}/containers/999999/logs`)).status).toBe(404);
  });

  it('downloads the lines as a text file', async () => {
    const response = await collab.get(`${url}/download?tail=4`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="web1-logs.txt"');
    const rows = response.text.trimEnd().split('\n');
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toMatch(/^\d{4}-\d\d-\d\dT\S+Z (stdout|stderr) (GET|warning)/);
  });

  const sseHeaders = (client: ManagerClient) => ({ cookie: `connect.sid=${client.cookie('connect.sid')}` });

  it('follows: the last lines, then each new one as it is written, and `end` when the instance stops', async () => {
    const started = Date.now();
    const events: { event: string; data: string }[] = [];
    const reading = readSse(`${test.baseUrl}/api/v1${url}/stream?tail=2`, sseHeaders(owner), {
      stop: (event) => {
        events.push(event);
        return event.event === 'end';
      },
    });
    // Two lines of history, then new ones a second apart.
    await eventually(async () => events.length >= 4, 6000);
    const lines = events.slice(0, 4).map((event) => JSON.parse(event.data) as Line);
    expect(events.slice(0, 4).every((event) => event.event === 'line')).toBe(true);
    expect(Date.parse(lines[3]!.time)).toBeGreaterThan(started - 1000);
    expect(Date.parse(lines[3]!.time) - Date.parse(lines[2]!.time)).toBe(1000);

    await test.manager.database.db.updateTable('dummy_instances').set({ state: 'stopped' }).execute();
    const result = await reading;
    expect(result.status).toBe(200);
    expect(result.contentType).toMatch(/^text\/event-stream/);
    expect(events.at(-1)!.event).toBe('end');
    await test.manager.database.db.updateTable('dummy_instances').set({ state: 'running' }).execute();
  });

  it('follows only the chosen stream and search', async () => {
    const events: { event: string; data: string }[] = [];
    const abort = new AbortController();
    const reading = readSse(
      `${test.baseUrl}/api/v1${url}/stream?stream=stderr&search=slow&tail=10`,
      sseHeaders(collab),
      {
        signal: abort.signal,
        stop: (event) => {
          events.push(event);
          return events.length === 2;
        },
      },
    );
    const result = await reading;
    expect(result.status).toBe(200);
    const lines = events.map((event) => JSON.parse(event.data) as Line);
    expect(lines.every((line) => line.stream === 'stderr' && line.text.includes('slow'))).toBe(true);
    expect(Date.parse(lines[1]!.time) - Date.parse(lines[0]!.time)).toBe(5000);
  }, 15_000);

  it('refuses a user past their followed logs with 429 too_many_streams, and frees a closed one', async () => {
    const follows = test.manager.services.logFollows;
    // The earlier tests' streams are gone.
    await eventually(async () => follows.size === 0);
    const aborts = [new AbortController(), new AbortController()];
    for (const abort of aborts) {
      const before = follows.size;
      void readSse(`${test.baseUrl}/api/v1${url}/stream`, sseHeaders(owner), { signal: abort.signal }).catch(
        () => undefined,
      );
      await eventually(async () => follows.size === before + 1);
    }
    const refused = await fetch(`${test.baseUrl}/api/v1${url}/stream`, { headers: sseHeaders(owner) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_streams');
    // Someone else still may.
    const collabAbort = new AbortController();
    void readSse(`${test.baseUrl}/api/v1${url}/stream`, sseHeaders(collab), {
      signal: collabAbort.signal,
    }).catch(() => undefined);
    await eventually(async () => follows.size === 3);
    aborts[0]!.abort();
    await eventually(async () => follows.size === 2);
    const again = new AbortController();
    const status = await new Promise<number>((resolve) => {
      void fetch(`${test.baseUrl}/api/v1${url}/stream`, { headers: sseHeaders(owner), signal: again.signal })
        .then((response) => resolve(response.status))
        .catch(() => resolve(0));
    });
    expect(status).toBe(200);
    for (const abort of [...aborts, collabAbort, again]) abort.abort();
  });

  it('answers 409 no_instance for a container without an instance on its node', async () => {
    await test.manager.database.db
      .updateTable('containers')
      .set({ container_id: null })
      .where('id', '=', id)
      .execute();
    try {
      const response = await owner.get(url);
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('no_instance');
    } finally {
      const vmid = (
        await test.manager.database.db.selectFrom('dummy_instances').select('vmid').executeTakeFirstOrThrow()
      ).vmid;
      await test.manager.database.db
        .updateTable('containers')
        .set({ container_id: String(vmid) })
        .where('id', '=', id)
        .execute();
    }
  });
});
