import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxFake } from '@app/fakes';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { createAndWait, envVars, jobEnds, jobOutputs, setEnvironmentAndWait } from './container-helpers.ts';
import { acceptedTerminal } from './terminal-client.ts';

const TOKEN = 'root@pam!manager';
const SECRET = '6f1c2a9e-0d4b-4b7e-8a51-3c9e7d2f4a10';
const DEBIAN = 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst';
const NGINX_ENV = [
  'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  'NGINX_VERSION=1.27.5',
];

/** Creating containers through the containers API on Proxmox VE nodes (the fake, over HTTPS). */
describe('containers on Proxmox VE nodes', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let pve: ProxmoxFake;
  /** A site whose one node logs in as root@pam with a password (may pass devices through). */
  let rootSite: number;
  /** A site whose one node uses an API token. */
  let tokenSite: number;

  beforeAll(async () => {
    pve = await new ProxmoxFake({
      tls: true,
      nodes: ['pve1', 'pve2'],
      tokens: { [TOKEN]: SECRET },
      users: { 'root@pam': 'hunter22' },
      taskDurationMs: 20,
    }).start();
    test = await startFleetManager();
    admin = await adminClient(test);
    const addSite = async (name: string, net: string, node: Record<string, unknown>) => {
      const site = (
        await admin.post(
          '/sites',
          siteInput({ name, dhcpRange: `${net}.100,${net}.200`, gateway: `${net}.1` }),
        )
      ).body.data.id as number;
      const created = await admin.post(`/sites/${site}/nodes`, {
        nodeType: 'proxmox',
        apiUrl: pve.url,
        tlsVerify: false,
        nvidiaAvailable: true,
        ...node,
      });
      expect(created.status, created.text).toBe(201);
      return site;
    };
    rootSite = await addSite('Root', '10.1.0', { name: 'pve1', tokenId: 'root@pam', secret: 'hunter22' });
    tokenSite = await addSite('Token', '10.2.0', { name: 'pve2', tokenId: TOKEN, secret: SECRET });
  });
  afterAll(async () => {
    await test.close();
    await pve.stop();
  });

  const create = (siteId: number, body: Record<string, unknown>) => createAndWait(admin, siteId, body);
  const hypervisorCt = (vmid: string) => pve.state.containers.get(Number(vmid));
  const disksOf = (vmid: number) =>
    [...pve.state.node('pve2').storages.values()].flatMap((storage) =>
      storage.volumes.filter((volume) => volume.vmid === vmid),
    );

  it('passes the NVIDIA devices through when a GPU is requested on a GPU node', async () => {
    const { status, outputs, container } = await create(rootSite, {
      hostname: 'cuda1',
      template: DEBIAN,
      nvidiaRequested: true,
    });
    expect(status, outputs.join('\n')).toBe('success');
    expect(container).toMatchObject({ status: 'running', nvidiaRequested: true });
    // The start task's whole log follows (its only line, too: the log was empty at the first poll).
    const started = outputs.indexOf(`Starting CT ${container.containerId}`);
    expect(outputs.slice(started, started + 2)).toEqual([`Starting CT ${container.containerId}`, 'TASK OK']);
    const config = hypervisorCt(container.containerId)!.config;
    expect([config.dev0, config.dev1, config.dev2, config.dev3]).toEqual([
      '/dev/nvidia0',
      '/dev/nvidiactl',
      '/dev/nvidia-uvm',
      '/dev/nvidia-uvm-tools',
    ]);
    // root@pam logged in for a ticket: the cookie on every call, the CSRF token on every write, no token.
    const calls = pve.requests.filter((call) => call.path.startsWith('/api2/json/nodes/pve1/'));
    expect(calls.some((call) => call.method === 'POST')).toBe(true);
    for (const call of calls) {
      expect(call.headers.cookie).toMatch(/^PVEAuthCookie=PVE%3Aroot%40pam%3A/);
      expect(call.headers.authorization).toBeUndefined();
      if (call.method !== 'GET') expect(call.headers.csrfpreventiontoken).toMatch(/^[0-9A-F]{8}:/);
    }
  });

  it('stops and starts a container (PVE tasks), its status offline then running; exec is refused', async () => {
    const { status, container } = await create(tokenSite, { hostname: 'power1', template: DEBIAN });
    expect(status).toBe('success');
    const url = `/sites/${tokenSite}/containers/${container.id}`;
    for (const [action, state, shown] of [
      ['stop', 'stopped', 'offline'],
      ['start', 'running', 'running'],
    ] as const) {
      const queued = await admin.post(`${url}/${action}`);
      expect(queued.status, queued.text).toBe(202);
      expect(await jobEnds(admin, queued.body.data.jobId)).toBe('success');
      expect(await jobOutputs(admin, queued.body.data.jobId)).toContain('TASK OK');
      expect(hypervisorCt(container.containerId)!.status).toBe(state);
      expect((await admin.get(url)).body.data.status).toBe(shown);
    }
    const refused = await admin.post(`${url}/exec`, { command: ['true'] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('exec_unsupported');
  });

  it('opens a terminal through the manager (termproxy + vncwebsocket with the node token): 42, resize, exit', async () => {
    const { status, container } = await create(tokenSite, { hostname: 'shell1', template: DEBIAN });
    expect(status).toBe('success');
    const path = `/sites/${tokenSite}/containers/${container.id}/terminal?cols=100&rows=30`;
    const terminal = await acceptedTerminal(test.baseUrl, path, { client: admin });
    expect((await terminal.run('echo $((6*7))', /\r\n(\d+)\r\n/))[1]).toBe('42');
    expect(await terminal.sttySize()).toBe('30 100');
    expect(await terminal.resizeAndAsk(132, 43)).toBe('43 132');
    terminal.type('exit\r');
    expect((await terminal.closed).code).toBe(1000);
  });

  it('logs in again when the cluster no longer takes its ticket, once, and goes on', async () => {
    expect((await create(rootSite, { hostname: 'relogin1', template: DEBIAN })).status).toBe('success');
    pve.auth.revokeTickets();
    pve.clearRequests();
    const { status, outputs } = await create(rootSite, { hostname: 'relogin2', template: DEBIAN });
    expect(status, outputs.join('\n')).toBe('success');
    expect(pve.countRequests({ method: 'POST', path: '/api2/json/access/ticket' })).toBe(1);
  });

  it('fails a GPU request on a node that uses an API token before touching the node, and says why', async () => {
    pve.clearRequests();
    const { status, outputs, container } = await create(tokenSite, {
      hostname: 'cuda2',
      template: DEBIAN,
      nvidiaRequested: true,
    });
    expect(status).toBe('failure');
    expect(outputs.at(-1)).toMatch(/root@pam.*password/);
    expect(container.status).toBe('failed');
    expect(pve.countRequests({ method: 'POST' })).toBe(0);
  });

  it('creates a container from an OCI image: pulled once into the image storage, image env kept beside ours', async () => {
    pve.addOciImage('nginx:1.27', {
      entrypoint: ['/docker-entrypoint.sh'],
      cmd: ['nginx', '-g', 'daemon off;'],
      env: NGINX_ENV,
    });
    const body = {
      template: 'nginx:1.27',
      entrypoint: '/usr/sbin/nginx -g "daemon off;"',
      environmentVars: [{ key: 'GREETING', value: 'hello' }],
    };
    const first = await create(tokenSite, { ...body, hostname: 'web1' });
    expect(first.status, first.outputs.join('\n')).toBe('success');
    expect(first.outputs).toContain('Pulling OCI image nginx:1.27 into local');
    expect(first.container.status).toBe('running');
    const ct = hypervisorCt(first.container.containerId)!;
    expect(ct.config).toMatchObject({ entrypoint: body.entrypoint, cmode: 'console', hostname: 'web1' });
    expect(String(ct.config.env).split('\0')).toEqual([...NGINX_ENV, 'GREETING=hello']);
    expect(pve.state.findVolume(pve.state.node('pve2'), 'local:vztmpl/nginx_1.27.tar')).toBeDefined();

    const second = await create(tokenSite, { ...body, hostname: 'web2' });
    expect(second.status, second.outputs.join('\n')).toBe('success');
    expect(second.outputs).toContain('Using image template local:vztmpl/nginx_1.27.tar');
    expect(pve.countRequests({ method: 'POST', path: '*/oci-registry-pull' })).toBe(1);
  });

  it('fails a create whose OCI image the node cannot pull, with the pull task error, making no CT', async () => {
    const before = [...pve.state.containers.keys()];
    const { status, outputs, container } = await create(tokenSite, {
      hostname: 'nopull1',
      template: 'nosuch:1.0',
    });
    expect(status).toBe('failure');
    expect(outputs).toContain('Pulling OCI image nosuch:1.0 into local');
    expect(outputs).toContain("TASK ERROR: failed to pull 'nosuch:1.0': manifest unknown");
    expect(outputs.at(-1)).toBe("Error: failed to pull 'nosuch:1.0': manifest unknown");
    expect(container).toMatchObject({ status: 'failed', containerId: null });
    expect([...pve.state.containers.keys()]).toEqual(before);
  });

  /** New user variables through the API; the job's output and the CT's env after it. */
  const reconfigure = async (siteId: number, id: number, environment: Record<string, string>) => {
    const { outputs, container } = await setEnvironmentAndWait(admin, siteId, id, environment);
    const env = String(hypervisorCt(container.containerId)!.config.env ?? '');
    return { outputs, env: env ? env.split('\0') : [] };
  };
  const imageEnvironmentRow = async (id: number) =>
    (
      await test.manager.database.db
        .selectFrom('containers')
        .select('image_environment')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).image_environment;

  it("reconfigures an OCI container's variables over the image's env: PATH stays, removed ones go, overridden image ones come back", async () => {
    pve.addOciImage('nginx:1.27', { entrypoint: ['/docker-entrypoint.sh'], env: NGINX_ENV });
    const { status, outputs, container } = await create(tokenSite, {
      hostname: 'web3',
      template: 'nginx:1.27',
      environmentVars: envVars({ GREETING: 'hello', NGINX_VERSION: 'mine' }),
    });
    expect(status, outputs.join('\n')).toBe('success');
    expect(String(hypervisorCt(container.containerId)!.config.env).split('\0')).toEqual([
      NGINX_ENV[0],
      'NGINX_VERSION=mine',
      'GREETING=hello',
    ]);
    expect(JSON.parse((await imageEnvironmentRow(container.id))!)).toEqual({
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      NGINX_VERSION: '1.27.5',
    });

    // GREETING changes, NGINX_VERSION (an override of the image's) is dropped, MODE is new.
    const changed = await reconfigure(tokenSite, container.id, { GREETING: 'hi', MODE: 'prod' });
    expect(changed.env).toEqual([...NGINX_ENV, 'GREETING=hi', 'MODE=prod']);
    expect(hypervisorCt(container.containerId)!.status).toBe('running');

    // No user variables at all: the image's env stays (it used to be deleted).
    expect((await reconfigure(tokenSite, container.id, {})).env).toEqual(NGINX_ENV);
  });

  it('leaves the init of a classic template alone: no env or entrypoint set, and the job says why', async () => {
    const { status, outputs, container } = await create(tokenSite, {
      hostname: 'deb1',
      template: DEBIAN,
      entrypoint: '/usr/bin/app',
      environmentVars: envVars({ GREETING: 'hello' }),
    });
    expect(status, outputs.join('\n')).toBe('success');
    const said = `CT ${container.containerId} runs the template ${DEBIAN} with its own init: environment variables and an entrypoint apply to OCI images only, so they are not set.`;
    expect(outputs).toContain(said);
    const changed = await reconfigure(tokenSite, container.id, { GREETING: 'hi' });
    expect(changed.outputs).toContain(said);
    const config = hypervisorCt(container.containerId)!.config;
    expect(config.env).toBeUndefined();
    expect(config.entrypoint).toBeUndefined();
  });

  it('works out the image env of a container from before it was recorded, from the node, once', async () => {
    pve.addOciImage('nginx:1.27', { entrypoint: ['/docker-entrypoint.sh'], env: NGINX_ENV });
    const { status, container } = await create(tokenSite, {
      hostname: 'web4',
      template: 'nginx:1.27',
      environmentVars: envVars({ OLD: '1', KEEP: 'yes' }),
    });
    expect(status).toBe('success');
    // As a row written before migration 005 (or an imported container) has it.
    await test.manager.database.db
      .updateTable('containers')
      .set({ image_environment: null })
      .where('id', '=', container.id)
      .execute();

    const first = await reconfigure(tokenSite, container.id, { KEEP: 'yes', NEW: '2' });
    expect(first.env).toEqual([...NGINX_ENV, 'KEEP=yes', 'NEW=2']);
    expect(first.outputs).toContain(
      "Recorded the image's own environment of web4 from pve2: PATH, NGINX_VERSION.",
    );
    expect(JSON.parse((await imageEnvironmentRow(container.id))!)).toEqual(
      Object.fromEntries(NGINX_ENV.map((entry) => entry.split('='))),
    );

    // The record is used from now on (nothing is worked out again): NEW really goes.
    const second = await reconfigure(tokenSite, container.id, { KEEP: 'yes' });
    expect(second.env).toEqual([...NGINX_ENV, 'KEEP=yes']);
    expect(second.outputs.some((line) => line.startsWith('Recorded the image'))).toBe(false);
  });

  it('refuses a control character PVE would refuse in a variable, before making anything, and says which', async () => {
    pve.addOciImage('nginx:1.27', { entrypoint: ['/docker-entrypoint.sh'], env: NGINX_ENV });
    const before = [...pve.state.containers.keys()];
    pve.clearRequests();
    const { status, outputs, container } = await create(tokenSite, {
      hostname: 'ctrl1',
      template: 'nginx:1.27',
      environmentVars: envVars({ GREETING: 'hello\u001b[31m' }),
    });
    expect(status).toBe('failure');
    expect(outputs.at(-1)).toBe(
      'Error: Proxmox VE does not accept the control character U+001B in the value of GREETING; remove it and try again.',
    );
    expect(container).toMatchObject({ status: 'failed', containerId: null });
    expect([...pve.state.containers.keys()]).toEqual(before);
    expect(pve.countRequests({ method: 'POST', path: '/api2/json/nodes/pve2/lxc' })).toBe(0);
  });

  it('grows the disk when a bigger rootfs is approved (a resize task), and says why a smaller one cannot be', async () => {
    const { status, container } = await create(tokenSite, { hostname: 'disk1', template: DEBIAN });
    expect(status).toBe('success');
    const vmid = Number(container.containerId);
    const ask = async (value: number) => {
      const asked = await admin.post('/resource-requests', {
        siteId: tokenSite,
        hostname: 'disk1',
        resourceType: 'rootfs',
        value,
      });
      expect(asked.status, asked.text).toBe(201);
      const { id } = await test.manager.database.db
        .selectFrom('jobs')
        .select('id')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return { status: await jobEnds(admin, id), outputs: await jobOutputs(admin, id) };
    };
    const grown = await ask(64);
    expect(grown.status, grown.outputs.join('\n')).toBe('success');
    expect(hypervisorCt(container.containerId)!.config.rootfs).toBe(`local-lvm:vm-${vmid}-disk-0,size=64G`);
    expect(disksOf(vmid).map((disk) => disk.size)).toEqual([64 * 1024 ** 3]);

    const shrunk = await ask(10);
    expect(shrunk.status).toBe('failure');
    expect(shrunk.outputs.at(-1)).toBe('Error: unable to shrink disk size');
    expect(hypervisorCt(container.containerId)!.config.rootfs).toBe(`local-lvm:vm-${vmid}-disk-0,size=64G`);
  });

  it('fails a create on a cluster member that is offline, saying the node is unreachable', async () => {
    const before = [...pve.state.containers.keys()];
    pve.setNodeOnline('pve2', false);
    try {
      const { status, outputs, container } = await create(tokenSite, { hostname: 'off1', template: DEBIAN });
      expect(status).toBe('failure');
      expect(outputs.at(-1)).toBe(
        'Error: Proxmox VE node pve2 is unreachable from its cluster (No route to host): is it offline? (POST /nodes/pve2/lxc)',
      );
      // Nothing was made, and the create failed: the container shows as failed although its node is
      // unreachable (the node's state matters only for a container that has an instance there).
      expect(container).toMatchObject({ status: 'failed', containerId: null });
      expect([...pve.state.containers.keys()]).toEqual(before);
    } finally {
      pve.setNodeOnline('pve2', true);
    }
  });

  it('fails a create on a full (thick LVM) storage with the reason from the node, leaving nothing', async () => {
    const storage = pve.state.node('pve2').storages.get('local-lvm')!;
    const saved = { type: storage.type, used: storage.used };
    Object.assign(storage, { type: 'lvm', used: storage.total - 2 * 1024 ** 3 });
    const before = [...pve.state.containers.keys()];
    try {
      const vmid = pve.state.nextId();
      const { status, outputs, container } = await create(tokenSite, { hostname: 'full2', template: DEBIAN });
      expect(status).toBe('failure');
      const reason =
        `unable to create CT ${vmid} - lvcreate 'pve/vm-${vmid}-disk-0' error:   ` +
        'Volume group "pve" has insufficient free space (512 extents): 12800 required.';
      expect(outputs).toContain(`TASK ERROR: ${reason}`);
      expect(outputs.at(-1)).toBe(`Error: ${reason}`);
      expect(container).toMatchObject({ status: 'failed', containerId: null });
      expect([...pve.state.containers.keys()]).toEqual(before);
    } finally {
      Object.assign(storage, saved);
    }
  });

  it('fails a create whose create task fails: task log in the output, nothing left on the node, status failed', async () => {
    const before = [...pve.state.containers.keys()];
    pve.failNextTask({ type: 'vzcreate', message: 'no space left on device' });
    const { status, outputs, container } = await create(tokenSite, { hostname: 'full1', template: DEBIAN });
    expect(status).toBe('failure');
    expect(outputs).toContain(
      "extracting archive '/var/lib/vz/template/cache/debian-12-standard_12.7-1_amd64.tar.zst'",
    );
    expect(
      outputs.some((line) => /^TASK ERROR: unable to create CT \d+ - no space left on device$/.test(line)),
    ).toBe(true);
    expect(container).toMatchObject({ status: 'failed', containerId: null });
    expect([...pve.state.containers.keys()]).toEqual(before);
  });

  it('removes the container it made when it then fails to start: task log in the output, status failed', async () => {
    const before = [...pve.state.containers.keys()];
    const vmid = pve.state.nextId();
    const failure = `startup for container '${vmid}' failed`;
    pve.failNextTask({ type: 'vzstart', message: failure });
    const { status, outputs, container } = await create(tokenSite, { hostname: 'broken1', template: DEBIAN });
    expect(status).toBe('failure');
    expect(outputs).toContain(`Creating CT ${vmid} (broken1) on pve2`);
    expect(outputs).toContain(`TASK ERROR: ${failure}`);
    expect(outputs).toContain(`Removing CT ${vmid} after the failed create`);
    expect(outputs.at(-1)).toBe(`Error: ${failure}`);
    expect(container).toMatchObject({ status: 'failed', containerId: null });
    expect([...pve.state.containers.keys()]).toEqual(before);
    expect(disksOf(vmid)).toEqual([]);
  });
});
