import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxFake } from '@app/fakes';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { createAndWait, envVars, setEnvironmentAndWait } from './container-helpers.ts';

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
