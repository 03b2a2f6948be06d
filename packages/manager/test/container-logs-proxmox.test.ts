import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxFake } from '@app/fakes';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { readSse, siteInput, startFleetManager } from './fleet-helpers.ts';
import { createAndWait, jobEnds } from './container-helpers.ts';

const TOKEN = 'root@pam!manager';
const SECRET = '6f1c2a9e-0d4b-4b7e-8a51-3c9e7d2f4a10';
const DEBIAN = 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst';

interface Line {
  time: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

/** A Proxmox VE container's logs are its task history: each task's header, then the task's log. */
describe('container logs on Proxmox VE nodes (the fake)', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let owner: ManagerClient;
  let pve: ProxmoxFake;
  let url: string;
  let vmid: string;

  beforeAll(async () => {
    pve = await new ProxmoxFake({
      tls: true,
      nodes: ['pve1'],
      tokens: { [TOKEN]: SECRET },
      taskDurationMs: 20,
    }).start();
    test = await startFleetManager();
    admin = await adminClient(test);
    owner = await userClient(test, admin, 'olga');
    const siteId = (await admin.post('/sites', siteInput())).body.data.id as number;
    const node = await admin.post(`/sites/${siteId}/nodes`, {
      nodeType: 'proxmox',
      name: 'pve1',
      apiUrl: pve.url,
      tlsVerify: false,
      tokenId: TOKEN,
      secret: SECRET,
    });
    expect(node.status, node.text).toBe(201);
    const { status, container } = await createAndWait(admin, siteId, {
      hostname: 'ct1',
      template: DEBIAN,
      username: 'olga',
    });
    expect(status).toBe('success');
    vmid = container.containerId;
    url = `/sites/${siteId}/containers/${container.id}/logs`;
    // A restart whose task fails: its lines are stderr.
    pve.failNextTask({ message: 'command lxc-stop failed' });
    const restart = await owner.put(`/sites/${siteId}/containers/${container.id}`, { restart: true });
    expect(restart.status, restart.text).toBe(200);
    expect(await jobEnds(owner, restart.body.data.jobId)).toBe('failure');
  });
  afterAll(async () => {
    await test.close();
    await pve.stop();
  });

  const linesOf = async (client: ManagerClient, query = '') => {
    const response = await client.get(`${url}${query}`);
    expect(response.status, response.text).toBe(200);
    return (response.body.data as { lines: Line[] }).lines;
  };

  it('shows each task of the container, oldest first, with its log; a failed task on stderr', async () => {
    const lines = await linesOf(owner);
    const headers = lines.filter((line) => / by root@pam!manager: /.test(line.text));
    expect(headers.map((line) => line.text)).toEqual([
      'vzcreate by root@pam!manager: OK',
      'vzstart by root@pam!manager: OK',
      expect.stringMatching(/^\w+ by root@pam!manager: command lxc-stop failed$/),
    ]);
    expect(headers.map((line) => line.stream)).toEqual(['stdout', 'stdout', 'stderr']);
    expect(lines.filter((line) => line.text === 'TASK OK')).toHaveLength(2);
    expect(lines.at(-1)).toMatchObject({ stream: 'stderr', text: 'TASK ERROR: command lxc-stop failed' });
    // Each line carries its task's start time.
    const tasks = [...pve.tasks.tasks.values()].filter((task) => task.id === vmid);
    expect(new Set(lines.map((line) => line.time))).toEqual(
      new Set(tasks.map((task) => new Date(task.starttime * 1000).toISOString())),
    );

    const stderr = await linesOf(owner, '?stream=stderr');
    expect(stderr.map((line) => line.text)).toEqual([
      expect.stringMatching(/command lxc-stop failed$/),
      'TASK ERROR: command lxc-stop failed',
    ]);
    expect((await linesOf(owner, '?search=task%20ok')).map((line) => line.text)).toEqual([
      'TASK OK',
      'TASK OK',
    ]);
    // `tail` reads from the end of the log, then `search` keeps what matches.
    expect(await linesOf(owner, '?search=task%20ok&tail=1')).toEqual([]);
    expect(await linesOf(owner, `?until=${new Date(Date.now() - 3600_000).toISOString()}`)).toEqual([]);
    // Through the task list, for this container only.
    expect(
      pve.requests.some((call) => call.path === '/api2/json/nodes/pve1/tasks' && call.query.vmid === vmid),
    ).toBe(true);
  });

  it('sends the history when following, then the tasks that start afterwards, as they run', async () => {
    const headers = { cookie: `connect.sid=${owner.cookie('connect.sid')}` };
    const since = new Date(Date.now() - 3600_000).toISOString();
    const taskLists = () => pve.requests.filter((call) => call.path === '/api2/json/nodes/pve1/tasks').length;
    const listedBefore = taskLists();
    const followers = [0, 1].map(() => {
      const lines: Line[] = [];
      const read = readSse(`${test.baseUrl}/api/v1${url}/stream?since=${since}`, headers, {
        signal: AbortSignal.timeout(20_000),
        // Until the shutdown started after following began has ended.
        stop: (event) => {
          if (event.event === 'line') lines.push(JSON.parse(event.data) as Line);
          const shutdown = lines.findIndex((line) => line.text.startsWith('vzshutdown by'));
          return shutdown >= 0 && lines.slice(shutdown).some((line) => line.text === 'TASK OK');
        },
      });
      return { read, lines };
    });
    // Both follow once they have the history (the node was asked for it by each).
    await expect.poll(taskLists).toBeGreaterThanOrEqual(listedBefore + 2);
    await expect
      .poll(() => followers.every(({ lines }) => lines.some((line) => line.text === 'TASK OK')))
      .toBe(true);
    expect(followers.some(({ lines }) => lines.some((line) => line.text.startsWith('vzshutdown')))).toBe(
      false,
    );

    const stop = await owner.post(`${url.replace(/\/logs$/, '')}/stop`);
    expect(stop.status, stop.text).toBe(202);
    for (const { read, lines } of followers) {
      const result = await read;
      expect(result.status).toBe(200);
      const shutdown = lines.findIndex((line) => line.text.startsWith('vzshutdown by'));
      expect(lines.slice(shutdown)).toEqual([
        expect.objectContaining({
          stream: 'stdout',
          text: expect.stringMatching(/^vzshutdown by root@pam!manager: (OK|running)$/),
        }),
        ...lines.slice(shutdown + 1, -1).map(() => expect.objectContaining({ stream: 'stdout' })),
        expect.objectContaining({ stream: 'stdout', text: 'TASK OK' }),
      ]);
      // Each line once: the history is not sent again.
      expect(lines.filter((line) => line.text.startsWith('vzcreate by'))).toHaveLength(1);
    }
    expect(await jobEnds(owner, stop.body.data.jobId)).toBe('success');
  });

  it('answers 502 node_unreachable when the node is offline; what it said is for administrators', async () => {
    pve.setNodeOnline('pve1', false);
    try {
      const asOwner = await owner.get(url);
      expect(asOwner.status).toBe(502);
      expect(asOwner.body.error).toMatchObject({ code: 'node_unreachable' });
      expect(asOwner.body.error.message).toMatch(/administrator can see why/);
      const asAdmin = await admin.get(url);
      expect(asAdmin.status).toBe(502);
      expect(asAdmin.body.error.message).not.toMatch(/administrator can see why/);
    } finally {
      pve.setNodeOnline('pve1', true);
    }
  });
});
