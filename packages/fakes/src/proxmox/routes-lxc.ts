import type { Router } from '../shared/router.ts';
import type { FakeRequest } from '../shared/types.ts';
import { API, identity, ok, onlineNode } from './context.ts';
import type { PveContext } from './context.ts';
import { pveError } from './errors.ts';
import { planCreate } from './lxc-create.ts';
import { planResize } from './lxc-resize.ts';
import { updateConfig } from './lxc-update.ts';
import { configDigest } from './state.ts';
import type { PveContainer } from './state.ts';
import type { TaskWork } from './tasks.ts';
import { containerRow } from './routes-cluster.ts';
import { containerRrd, type RrdTimeframe } from './rrd.ts';

const LXC = `${API}/nodes/:node/lxc`;

/** Container endpoints: list, create, config, status, actions, delete. */
export function registerLxcRoutes(router: Router, ctx: PveContext): void {
  const containerOf = (req: FakeRequest): PveContainer => {
    onlineNode(ctx, req);
    return ctx.state.container(req.params.node!, Number(ctx.params(req).vmid));
  };
  const runTask = (req: FakeRequest, type: string, id: number, work: TaskWork) => {
    const { user, tokenid } = identity(ctx, req);
    return ok(ctx.tasks.start(req.params.node!, type, String(id), { user, tokenid }, work).upid);
  };

  router.get(LXC, (req) => {
    const node = onlineNode(ctx, req);
    const rows = [...ctx.state.containers.values()]
      .filter((ct) => ct.node === node.name)
      .map((ct) => {
        const { node: _node, ...row } = containerRow(ct);
        return row;
      });
    return ok(rows);
  });

  router.post(LXC, (req) => {
    const node = onlineNode(ctx, req);
    const plan = planCreate(
      ctx.state,
      node,
      ctx.params(req),
      identity(ctx, req),
      ctx.oci ? ctx.ociTemplates : undefined,
    );
    ctx.state.containers.set(plan.container.vmid, plan.container);
    if (plan.start) {
      const run = plan.work.run;
      plan.work.run = () => {
        run?.();
        startContainer(plan.container);
      };
    }
    return runTask(req, 'vzcreate', plan.container.vmid, plan.work);
  });

  router.get(`${LXC}/:vmid`, (req) => {
    containerOf(req);
    const names = [
      'config',
      'status',
      'snapshot',
      'firewall',
      'rrd',
      'rrddata',
      'vncproxy',
      'termproxy',
      'spiceproxy',
      'migrate',
      'clone',
      'pending',
      'interfaces',
    ];
    return ok(names.map((subdir) => ({ subdir })));
  });

  router.get(`${LXC}/:vmid/config`, (req) => {
    const ct = containerOf(req);
    const { current } = ctx.params(req);
    const config = current === 1 ? { ...ct.config } : { ...ct.config, ...ct.pending };
    for (const key of Object.keys(config)) if (config[key] === '') delete config[key];
    if (ct.lock) config.lock = ct.lock;
    return ok({ ...config, digest: configDigest(ct.config) });
  });

  router.get(`${LXC}/:vmid/interfaces`, (req) => {
    const ct = containerOf(req);
    if (ct.status !== 'running') return ok(null);
    const ifaces: unknown[] = [
      {
        name: 'lo',
        hwaddr: '00:00:00:00:00:00',
        'hardware-address': '00:00:00:00:00:00',
        inet: '127.0.0.1/8',
        inet6: '::1/128',
      },
    ];
    for (const [key, value] of Object.entries(ct.config)) {
      if (!/^net\d+$/.test(key)) continue;
      const name = /name=([^,]+)/.exec(String(value))?.[1] ?? key;
      const mac = (/hwaddr=([^,]+)/.exec(String(value))?.[1] ?? '').toLowerCase();
      const ip =
        /(?:^|,)ip=(\d+\.\d+\.\d+\.\d+\/\d+)/.exec(String(value))?.[1] ?? `10.0.0.${ct.vmid % 250}/24`;
      const [address, prefix] = ip.split('/');
      ifaces.push({
        name,
        hwaddr: mac,
        'hardware-address': mac,
        inet: ip,
        'ip-addresses': [{ 'ip-address': address, 'ip-address-type': 'inet', prefix: Number(prefix) }],
      });
    }
    return ok(ifaces);
  });

  router.put(`${LXC}/:vmid/config`, (req) => {
    const ct = containerOf(req);
    updateConfig(ct, ctx.params(req), identity(ctx, req), ctx.oci);
    return ok(null);
  });

  router.put(`${LXC}/:vmid/resize`, (req) => {
    const ct = containerOf(req);
    const work = planResize(ctx.state, ctx.state.node(ct.node), ct, ctx.params(req));
    return runTask(req, 'resize', ct.vmid, work);
  });

  router.get(`${LXC}/:vmid/status/current`, (req) => {
    const { node: _node, ...row } = containerRow(containerOf(req));
    return ok({ ...row, ha: { managed: 0 } });
  });

  router.get(`${LXC}/:vmid/rrddata`, (req) => {
    const ct = containerOf(req);
    const { timeframe } = ctx.params(req) as { timeframe: RrdTimeframe };
    return ok(containerRrd(ct, timeframe, Date.now()));
  });

  router.get(`${LXC}/:vmid/status`, (req) => {
    containerOf(req);
    return ok(
      ['current', 'start', 'stop', 'shutdown', 'reboot', 'suspend', 'resume'].map((subdir) => ({ subdir })),
    );
  });

  router.post(`${LXC}/:vmid/status/:action`, (req) => {
    const ct = containerOf(req);
    const action = req.params.action!;
    if (!['start', 'stop', 'shutdown', 'reboot'].includes(action))
      throw pveError(501, `Method 'POST /nodes/${ct.node}/lxc/${ct.vmid}/status/${action}' not implemented`);
    if (ct.lock) throw pveError(500, `CT is locked (${ct.lock})`);
    const running = ct.status === 'running';
    if (action === 'start') {
      if (running) throw pveError(500, `CT ${ct.vmid} already running`);
      return runTask(req, 'vzstart', ct.vmid, {
        lines: [],
        run: () => {
          if (ct.config.template === 1) throw new Error(`you can't start a CT if it's a template`);
          startContainer(ct);
        },
      });
    }
    if (!running)
      throw pveError(500, action === 'reboot' ? `VM ${ct.vmid} not running` : `CT ${ct.vmid} not running`);
    if (action === 'reboot')
      return runTask(req, 'vzreboot', ct.vmid, { lines: [], run: () => startContainer(ct) });
    return runTask(req, action === 'stop' ? 'vzstop' : 'vzshutdown', ct.vmid, {
      lines: [],
      run: () => stopContainer(ct),
    });
  });

  router.delete(`${LXC}/:vmid`, (req) => {
    const ct = containerOf(req);
    const params = ctx.params(req);
    if (ct.lock) throw pveError(500, `CT is locked (${ct.lock})`);
    if (ct.config.protection === 1)
      throw pveError(500, `can't remove CT ${ct.vmid} - protection mode enabled`);
    if (ct.status === 'running' && params.force !== 1) {
      throw pveError(500, `unable to destroy CT ${ct.vmid} - container is running`);
    }
    const node = ctx.state.node(ct.node);
    const disks = [...node.storages.values()].flatMap((s) =>
      s.volumes.filter((v) => v.vmid === ct.vmid).map((v) => ({ v, type: s.type })),
    );
    ct.lock = 'destroyed';
    return runTask(req, 'vzdestroy', ct.vmid, {
      lines: disks
        .filter((d) => d.type === 'lvmthin')
        .map((d) => `  Logical volume "${d.v.volid.split(':')[1]}" successfully removed.`),
      run: () => {
        stopContainer(ct);
        ctx.state.removeVolumes(ct.vmid);
        ctx.state.containers.delete(ct.vmid);
        if (params.purge === 1) return [`purging CT ${ct.vmid} from related configurations..`];
        return undefined;
      },
      onError: () => delete ct.lock,
    });
  });
}

let nextPid = 40_000;

/** Pending changes (an empty string is a pending deletion) are applied at start. */
function startContainer(ct: PveContainer): void {
  for (const [key, value] of Object.entries(ct.pending)) {
    if (value === '') delete ct.config[key];
    else ct.config[key] = value;
  }
  ct.pending = {};
  ct.status = 'running';
  ct.startedAt = Date.now();
  ct.pid = nextPid++;
}

function stopContainer(ct: PveContainer): void {
  ct.status = 'stopped';
  delete ct.startedAt;
  delete ct.pid;
}
