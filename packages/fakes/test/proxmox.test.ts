import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxmoxFake, testCertificatePem } from '../src/index.ts';
import { PveClient } from './pve-client.ts';

const TOKEN = 'root@pam!manager';
const SECRET = '5f2a6c1e-8d7b-4c3a-9e1f-2b4d6a8c0e12';

describe('Proxmox VE fake', () => {
  const fake = new ProxmoxFake({
    nodes: ['pve1', 'pve2'],
    tokens: { [TOKEN]: SECRET, 'ops@pve!ci': SECRET },
    users: { 'root@pam': 'rootpw' },
    taskDurationMs: 5,
  });
  let api: PveClient;

  beforeAll(async () => {
    await fake.start();
    api = PveClient.withToken(fake.apiUrl, TOKEN, SECRET);
  });
  afterAll(() => fake.stop());

  it('rejects missing and wrong credentials with the reason phrase and no body', async () => {
    expect((await new PveClient(fake.apiUrl).get('/nodes/pve1/nope')).status).toBe(501);
    expect(fake.takeViolations()).toEqual([
      {
        kind: 'request',
        method: 'GET',
        path: '/nodes/pve1/nope',
        errors: { path: 'no such path in the PVE API schema' },
      },
    ]);
    const none = await new PveClient(fake.apiUrl).get('/nodes');
    expect([none.status, none.statusText, none.body]).toEqual([401, 'No ticket', undefined]);
    const wrong = await PveClient.withToken(fake.apiUrl, TOKEN, 'nope').get('/nodes');
    expect([wrong.status, wrong.statusText]).toEqual([401, 'Authentication failed!']);
  });

  it('logs in with a ticket and requires the CSRF token on writes', async () => {
    const client = new PveClient(fake.apiUrl);
    const bad = await client.login('root@pam', 'wrong');
    expect([bad.status, bad.statusText, bad.body?.data]).toEqual([401, 'authentication failure', null]);
    const res = await client.login('root@pam', 'rootpw');
    expect(res.body?.data.ticket).toMatch(/^PVE:root@pam:[0-9A-F]{8}::/);
    expect(res.body?.data.CSRFPreventionToken).toMatch(/^[0-9A-F]{8}:/);
    expect((await client.get('/version')).body?.data).toMatchObject({ version: '9.1.2', release: '9.1' });
    const { csrfpreventiontoken: _csrf, ...noCsrf } = client.headers;
    const plain = new PveClient(fake.apiUrl);
    plain.headers = noCsrf;
    const denied = await plain.post('/nodes/pve1/lxc', { vmid: 150, ostemplate: 'x:y' });
    expect([denied.status, denied.statusText]).toEqual([401, 'Permission denied - invalid csrf token']);
  });

  it('lists nodes, node status and template storages', async () => {
    const nodes = await api.get<{ node: string; status: string; maxmem: number }[]>('/nodes');
    expect(nodes.body?.data.map((n) => [n.node, n.status])).toEqual([
      ['pve1', 'online'],
      ['pve2', 'online'],
    ]);
    const status = await api.get<{
      loadavg: string[];
      memory: { total: number };
      rootfs: { avail: number };
      'current-kernel': { machine: string };
    }>('/nodes/pve1/status');
    expect(status.body?.data.loadavg).toEqual(['0.12', '0.08', '0.02']);
    expect(status.body?.data['current-kernel'].machine).toBe('x86_64');
    expect(status.body?.data.memory.total).toBeGreaterThan(0);
    const storages = await api.get<{ storage: string; content: string; active: number; avail: number }[]>(
      '/nodes/pve1/storage',
      { content: 'vztmpl' },
    );
    expect(storages.body?.data.map((s) => s.storage)).toEqual(['local']);
    expect(storages.body?.data[0]).toMatchObject({ active: 1, enabled: 1, type: 'dir' });
    const content = await api.get<{ volid: string; format: string }[]>('/nodes/pve1/storage/local/content', {
      content: 'vztmpl',
    });
    expect(content.body?.data[0]).toMatchObject({
      volid: 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst',
      format: 'tzst',
    });
    const missing = await api.get('/nodes/pve1/storage/nope/content');
    expect([missing.status, missing.statusText]).toEqual([500, "storage 'nope' does not exist"]);
  });

  it('creates a container through a task: UPID, log, status, list, config', async () => {
    const next = await api.get<string>('/cluster/nextid');
    expect(next.body?.data).toBe('100');
    const created = await api.post<string>('/nodes/pve1/lxc', {
      vmid: 100,
      ostemplate: 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst',
      hostname: 'web1',
      net0: 'name=eth0,bridge=vmbr0,ip=dhcp',
      memory: 1024,
      cores: 2,
      rootfs: 'local-lvm:8',
      features: 'nesting=1',
    });
    expect(created.body?.data).toMatch(
      /^UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:vzcreate:100:root@pam!manager:$/,
    );
    const locked = await api.get<{ lock?: string }>('/nodes/pve1/lxc/100/status/current');
    expect(locked.body?.data.lock).toBe('create');
    const task = await api.waitTask('pve1', created.body!.data);
    expect(task.exitstatus).toBe('OK');
    expect(task.log.at(-1)).toBe('TASK OK');
    expect(task.log).toContain('  Logical volume "vm-100-disk-0" created.');
    const taskStatus = await api.get<Record<string, unknown>>(
      `/nodes/pve1/tasks/${created.body!.data}/status`,
    );
    expect(taskStatus.body?.data).toMatchObject({
      type: 'vzcreate',
      id: '100',
      user: 'root@pam',
      tokenid: 'manager',
    });
    const page = await api.get<{ n: number }[]>(`/nodes/pve1/tasks/${created.body!.data}/log`, {
      start: 2,
      limit: 2,
    });
    expect(page.body?.data.map((l) => l.n)).toEqual([3, 4]);
    expect(page.body?.total).toBe(task.log.length);

    const list =
      await api.get<{ vmid: number; name: string; status: string; maxmem: number }[]>('/nodes/pve1/lxc');
    expect(list.body?.data).toEqual([
      expect.objectContaining({
        vmid: 100,
        name: 'web1',
        status: 'stopped',
        maxmem: 1024 * 1024 ** 2,
        type: 'lxc',
      }),
    ]);
    const config = await api.get<Record<string, string | number>>('/nodes/pve1/lxc/100/config');
    expect(config.body?.data).toMatchObject({
      hostname: 'web1',
      memory: 1024,
      cores: 2,
      unprivileged: 1,
      arch: 'amd64',
    });
    expect(config.body?.data.rootfs).toBe('local-lvm:vm-100-disk-0,size=8G');
    expect(config.body?.data.net0).toMatch(
      /^name=eth0,bridge=vmbr0,hwaddr=BC:24:11(:[0-9A-F]{2}){3},ip=dhcp,type=veth$/,
    );
    expect(config.body?.data.digest).toMatch(/^[0-9a-f]{40}$/);
    const resources = await api.get<{ id: string; node: string }[]>('/cluster/resources', { type: 'vm' });
    expect(resources.body?.data).toEqual([
      expect.objectContaining({ id: 'lxc/100', node: 'pve1', type: 'lxc' }),
    ]);
  });

  it('rejects a taken vmid with the real errors', async () => {
    const again = await api.post('/nodes/pve2/lxc', { vmid: 100, ostemplate: 'local:vztmpl/x.tar.zst' });
    expect([again.status, again.statusText]).toEqual([500, "CT 100 already exists on node 'pve1'"]);
    expect(again.body).toEqual({ data: null, message: "CT 100 already exists on node 'pve1'\n" });
    const next = await api.get('/cluster/nextid', { vmid: 100 });
    expect(next.status).toBe(400);
    expect(next.body?.errors).toEqual({ vmid: 'VM 100 already exists' });
    const missing = await api.post('/nodes/pve1/lxc', { ostemplate: 'local:vztmpl/x.tar.zst' });
    expect(missing.body?.errors).toEqual({ vmid: 'property is missing and it is not optional' });
    const bool = await api.post('/nodes/pve1/lxc', {
      vmid: 140,
      ostemplate: 'local:vztmpl/x',
      start: 'true',
    });
    expect(bool.body?.errors).toEqual({ start: "type check ('boolean') failed - got 'true'" });
    // Refused by the schema, so recorded for the test guard too (a handler's own refusal is not).
    expect(fake.takeViolations().map((v) => v.errors)).toEqual([missing.body?.errors, bool.body?.errors]);
  });

  it('starts, stops, reconfigures and deletes with the real preconditions', async () => {
    const start = await api.post<string>('/nodes/pve1/lxc/100/status/start');
    expect((await api.waitTask('pve1', start.body!.data)).exitstatus).toBe('OK');
    const twice = await api.post('/nodes/pve1/lxc/100/status/start');
    expect([twice.status, twice.statusText]).toEqual([500, 'CT 100 already running']);
    const put = await api.call('PUT', '/nodes/pve1/lxc/100/config', { memory: 2048, entrypoint: '/bin/app' });
    expect(put.body).toEqual({ data: null });
    const current = await api.get<Record<string, unknown>>('/nodes/pve1/lxc/100/config', { current: 1 });
    expect(current.body?.data).toMatchObject({ memory: 2048 });
    expect(current.body?.data.entrypoint).toBeUndefined();
    const busy = await api.call('DELETE', '/nodes/pve1/lxc/100');
    expect(busy.statusText).toBe('unable to destroy CT 100 - container is running');
    const stop = await api.post<string>('/nodes/pve1/lxc/100/status/stop');
    await api.waitTask('pve1', stop.body!.data);
    const again = await api.post('/nodes/pve1/lxc/100/status/shutdown');
    expect(again.statusText).toBe('CT 100 not running');
    const reboot = await api.post('/nodes/pve1/lxc/100/status/reboot');
    expect(reboot.statusText).toBe('VM 100 not running');
    const del = await api.call<string>('DELETE', '/nodes/pve1/lxc/100', { purge: 1 });
    expect((await api.waitTask('pve1', del.body!.data)).log).toContain(
      '  Logical volume "vm-100-disk-0" successfully removed.',
    );
    const gone = await api.get('/nodes/pve1/lxc/100/config');
    expect(gone.statusText).toBe("Configuration file 'nodes/pve1/lxc/100.conf' does not exist");
  });

  it('fails a task with TASK ERROR and removes the half-made container', async () => {
    fake.failNextTask({ type: 'vzcreate', message: 'no space left on device' });
    const res = await api.post<string>('/nodes/pve2/lxc', {
      vmid: 101,
      ostemplate: 'local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst',
      rootfs: 'local-lvm:4',
    });
    const task = await api.waitTask('pve2', res.body!.data);
    expect(task.exitstatus).toBe('unable to create CT 101 - no space left on device');
    expect(task.log.at(-1)).toBe('TASK ERROR: unable to create CT 101 - no space left on device');
    expect((await api.get<unknown[]>('/nodes/pve2/lxc')).body?.data).toEqual([]);
    const missing = await api.post<string>('/nodes/pve2/lxc', {
      vmid: 101,
      ostemplate: 'local:vztmpl/none.tar.zst',
      storage: 'local-lvm',
    });
    expect((await api.waitTask('pve2', missing.body!.data)).exitstatus).toBe(
      "unable to create CT 101 - volume 'local:vztmpl/none.tar.zst' does not exist",
    );
  });

  it('lists a node’s finished tasks newest first, filtered and paged as PVE does', async () => {
    type Listed = {
      upid: string;
      id: string;
      type: string;
      starttime: number;
      status?: string;
      endtime?: number;
    };
    const ofCt = await api.get<Listed[]>('/nodes/pve1/tasks', { vmid: 100 });
    const tasks = ofCt.body!.data;
    expect(tasks.length).toBeGreaterThanOrEqual(4);
    expect(
      tasks.every((task) => task.id === '100' && task.status === 'OK' && task.endtime! >= task.starttime),
    ).toBe(true);
    expect(tasks.map((task) => task.starttime)).toEqual(
      tasks.map((task) => task.starttime).sort((a, b) => b - a),
    );
    expect(tasks.at(-1)!.type).toBe('vzcreate');

    const failed = await api.get<Listed[]>('/nodes/pve2/tasks', { errors: 1, limit: 1 });
    expect(failed.body).toMatchObject({ total: 2, data: [{ id: '101', type: 'vzcreate' }] });
    expect(failed.body!.data[0]!.status).toMatch(/^unable to create CT 101 - /);
    const later = Math.floor(Date.now() / 1000) + 60;
    expect((await api.get<Listed[]>('/nodes/pve1/tasks', { since: later })).body!.data).toEqual([]);
    expect((await api.get<Listed[]>('/nodes/pve1/tasks', { source: 'active' })).body!.data).toEqual([]);
  });

  it('needs a storage that holds container directories', async () => {
    const res = await api.post('/nodes/pve1/lxc', { vmid: 121, ostemplate: 'local:vztmpl/x.tar.zst' });
    expect(res.body?.errors).toEqual({ storage: "storage 'local' does not support container directories" });
  });

  it('refuses device passthrough and extra features for API tokens', async () => {
    const res = await api.post('/nodes/pve1/lxc', {
      vmid: 120,
      ostemplate: 'local:vztmpl/x',
      dev0: '/dev/nvidia0',
    });
    expect(res.status).toBe(403);
    expect(res.statusText).toMatch(/^Permission check failed/);
  });

  it('creates from an OCI archive template with the image entrypoint and env (9.1+)', async () => {
    fake.addOciImage('docker.io/library/nginx:alpine', {
      entrypoint: ['/docker-entrypoint.sh'],
      cmd: ['nginx', '-g', 'daemon off;'],
      env: ['PATH=/usr/bin', 'NGINX_VERSION=1.27'],
    });
    const pull = await api.post<string>('/nodes/pve1/storage/local/oci-registry-pull', {
      reference: 'docker.io/library/nginx:alpine',
    });
    expect(pull.body?.data).toContain(':ociregistrypull:nginx_alpine.tar:');
    expect((await api.waitTask('pve1', pull.body!.data)).exitstatus).toBe('OK');
    const res = await api.post<string>('/nodes/pve1/lxc', {
      vmid: 130,
      ostemplate: 'local:vztmpl/nginx_alpine.tar',
      storage: 'local-lvm',
      net0: 'name=eth0,bridge=vmbr0',
    });
    await api.waitTask('pve1', res.body!.data);
    const config = await api.get<Record<string, string>>('/nodes/pve1/lxc/130/config');
    expect(config.body?.data).toMatchObject({
      cmode: 'console',
      entrypoint: '/docker-entrypoint.sh nginx -g daemon off;',
      env: 'PATH=/usr/bin\0NGINX_VERSION=1.27',
    });
    expect(config.body?.data.net0).toContain('host-managed=1');
  });

  it('records an answer outside the `returns` schema (a status PVE never reports)', async () => {
    const ct = fake.addContainer({ vmid: 150, node: 'pve1' });
    expect((await api.get('/nodes/pve1/lxc/150/status/current')).status).toBe(200);
    expect(fake.takeViolations()).toEqual([]);
    (ct as { status: string }).status = 'paused';
    expect((await api.get('/nodes/pve1/lxc/150/status/current')).status).toBe(200);
    expect(fake.takeViolations()).toEqual([
      {
        kind: 'answer',
        method: 'GET',
        path: '/nodes/pve1/lxc/150/status/current',
        errors: {
          'data.status': "value 'paused' does not have a value in the enumeration 'stopped, running'",
        },
      },
    ]);
    fake.state.containers.delete(150);
  });

  it('answers 595 for an offline node, 501 for unknown paths, and counts calls per node', async () => {
    fake.clearRequests();
    fake.setNodeOnline('pve2', false);
    const offline = await api.get('/nodes/pve2/lxc');
    expect([offline.status, offline.body]).toEqual([595, undefined]);
    fake.setNodeOnline('pve2', true);
    await api.get('/nodes/pve1/lxc');
    await api.get('/nodes/pve1/status');
    expect(fake.countRequests({ path: '/api2/json/nodes/pve1/*' })).toBe(2);
    expect(fake.countRequests({ path: '/api2/json/nodes/pve2/*' })).toBe(1);
    const unknown = await api.get('/nodes/pve1/foo');
    expect([unknown.status, unknown.statusText]).toEqual([
      501,
      "Method 'GET /nodes/pve1/foo' not implemented",
    ]);
    expect(fake.takeViolations()).toHaveLength(1);
  });

  it("answers a container's rrddata: a row per step of the timeframe, figures only while it ran", async () => {
    const ct = fake.addContainer({ vmid: 160, node: 'pve2', status: 'running', config: { cores: 2 } });
    ct.startedAt = Date.now() - 10 * 60_000;
    const hour = await api.get<Array<Record<string, number>>>('/nodes/pve2/lxc/160/rrddata', {
      timeframe: 'hour',
      cf: 'AVERAGE',
    });
    const rows = hour.body!.data;
    expect(rows).toHaveLength(70);
    expect(rows[1]!.time! - rows[0]!.time!).toBe(60);
    expect(rows.at(-1)!.time).toBeLessThanOrEqual(Date.now() / 1000);
    const ran = rows.filter((row) => row.cpu !== undefined);
    expect(ran.length).toBeGreaterThanOrEqual(9);
    expect(ran.length).toBeLessThanOrEqual(11);
    expect(ran[0]).toMatchObject({ maxcpu: 2, netin: 1000, netout: 500 });
    expect(Object.keys(rows[0]!)).toEqual(['time']);
    const day = await api.get<Array<{ time: number }>>('/nodes/pve2/lxc/160/rrddata', { timeframe: 'day' });
    expect(day.body!.data[1]!.time - day.body!.data[0]!.time).toBe(1800);

    const missing = await api.get('/nodes/pve2/lxc/160/rrddata');
    expect(missing.status).toBe(400);
    expect(missing.body?.errors).toEqual({ timeframe: 'property is missing and it is not optional' });
    const wrong = await api.get('/nodes/pve2/lxc/160/rrddata', { timeframe: 'minute' });
    expect(wrong.status).toBe(400);
    expect(Object.keys(wrong.body?.errors as object)).toEqual(['timeframe']);
    expect((await api.get('/nodes/pve1/lxc/160/rrddata', { timeframe: 'hour' })).status).toBe(500);
    fake.takeViolations();
  });

  it('injects failures and latency, and goes unreachable', async () => {
    fake.failNext(2, { path: '/api2/json/nodes', status: 500, message: 'cluster not ready' });
    expect((await api.get('/nodes')).statusText).toBe('cluster not ready');
    expect((await api.get('/nodes')).status).toBe(500);
    expect((await api.get('/nodes')).status).toBe(200);
    // A request an injected failure answers is held to the schema all the same.
    fake.failNext(1, { path: '/api2/json/cluster/nextid', status: 500 });
    expect((await api.get('/cluster/nextid', { vmid: 'next' })).status).toBe(500);
    expect(fake.takeViolations().map((violation) => violation.errors)).toEqual([
      { vmid: "type check ('integer') failed - got 'next'" },
    ]);
    fake.setLatency(60, { path: '/api2/json/version' });
    const began = Date.now();
    await api.get('/version');
    expect(Date.now() - began).toBeGreaterThanOrEqual(55);
    fake.setLatency(0);
    await fake.setUnreachable(true);
    await expect(api.get('/version')).rejects.toThrow();
    await fake.setUnreachable(false);
    expect((await api.get('/version')).status).toBe(200);
  });
});

describe('Proxmox VE fake over TLS', () => {
  it('serves HTTPS with the shipped self-signed certificate', async () => {
    const fake = await new ProxmoxFake({ tls: true, tokens: { [TOKEN]: SECRET } }).start();
    try {
      expect(fake.apiUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api2\/json$/);
      const body = await new Promise<string>((resolve, reject) => {
        const req = request(
          `${fake.apiUrl}/nodes`,
          { ca: testCertificatePem(), headers: { authorization: `PVEAPIToken=${TOKEN}=${SECRET}` } },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c));
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(JSON.parse(body).data[0]).toMatchObject({
        node: 'pve',
        ssl_fingerprint: new X509Certificate(testCertificatePem()).fingerprint256,
      });
    } finally {
      await fake.stop();
    }
  });
});

describe('Proxmox VE fake emulating 8.4', () => {
  it('has no OCI pull and rejects the 9.1 options', async () => {
    const fake = await new ProxmoxFake({
      version: '8.4.1',
      tokens: { [TOKEN]: SECRET },
      errorMessageInBody: false,
    }).start();
    try {
      const api = PveClient.withToken(fake.apiUrl, TOKEN, SECRET);
      expect((await api.get<{ version: string }>('/version')).body?.data.version).toBe('8.4.1');
      const pull = await api.post('/nodes/pve/storage/local/oci-registry-pull', {
        reference: 'nginx:alpine',
      });
      expect([pull.status, pull.statusText]).toEqual([
        501,
        "Method 'POST /nodes/pve/storage/local/oci-registry-pull' not implemented",
      ]);
      const env = await api.post('/nodes/pve/lxc', { vmid: 100, ostemplate: 'local:vztmpl/x', env: 'A=1' });
      expect(env.body).toEqual({
        data: null,
        errors: {
          env: 'property is not defined in schema and the schema does not allow additional properties',
        },
      });
    } finally {
      await fake.stop();
    }
  });
});
