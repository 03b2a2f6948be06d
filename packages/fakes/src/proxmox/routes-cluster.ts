import type { Router } from '../shared/router.ts';
import { API, ok } from './context.ts';
import type { PveContext } from './context.ts';
import { paramError, permissionError } from './errors.ts';
import type { PveContainer, PveNode } from './state.ts';

const GiB = 1024 ** 3;

/** `/access/ticket`, `/version`, `/nodes`, `/cluster/resources`, `/cluster/nextid`. */
export function registerClusterRoutes(router: Router, ctx: PveContext): void {
  router.post(`${API}/access/ticket`, (req) => {
    if (ctx.identities.get(req)?.tokenid) {
      throw permissionError(`URI '/access/ticket' not available with API token, need proper ticket.`);
    }
    const params = ctx.params(req);
    const { user, ticket, csrf } = ctx.auth.login(
      String(params.username),
      String(params.password),
      params.realm as string | undefined,
    );
    return ok({ username: user, ticket, CSRFPreventionToken: csrf, cap: capabilities() });
  });

  router.get(`${API}/version`, () => ok({ ...ctx.version, console: 'html5' }));

  router.get(`${API}/nodes`, () =>
    ok([...ctx.state.nodes.values()].map((n) => ({ ...nodeRow(n), ssl_fingerprint: ctx.fingerprint }))),
  );

  router.get(`${API}/cluster/resources`, (req) => {
    const type = req.query.get('type');
    if (type && !['vm', 'node', 'storage', 'sdn'].includes(type)) {
      throw paramError({
        type: `value '${type}' does not have a value in the enumeration 'vm, storage, node, sdn'`,
      });
    }
    const rows: unknown[] = [];
    if (!type || type === 'vm') {
      for (const ct of ctx.state.containers.values())
        rows.push({ id: `lxc/${ct.vmid}`, ...containerRow(ct) });
    }
    for (const node of ctx.state.nodes.values()) {
      if (!type || type === 'node') rows.push({ ...nodeRow(node), 'cgroup-mode': 2, 'host-arch': 'x86_64' });
      if (type && type !== 'storage') continue;
      for (const s of node.storages.values()) {
        rows.push({
          id: `storage/${node.name}/${s.storage}`,
          type: 'storage',
          node: node.name,
          storage: s.storage,
          status: node.online && s.active ? 'available' : 'unknown',
          plugintype: s.type,
          content: s.content.join(','),
          shared: s.shared ? 1 : 0,
          disk: s.used,
          maxdisk: s.total,
        });
      }
    }
    return ok(rows);
  });

  router.get(`${API}/cluster/nextid`, (req) => {
    const { vmid } = ctx.params(req);
    if (vmid === undefined) return ok(String(ctx.state.nextId()));
    if (ctx.state.containers.has(Number(vmid))) throw paramError({ vmid: `VM ${vmid} already exists` });
    return ok(String(vmid));
  });
}

export function nodeRow(node: PveNode): Record<string, unknown> {
  const base = {
    id: `node/${node.name}`,
    node: node.name,
    type: 'node',
    status: node.online ? 'online' : 'offline',
    level: '',
  };
  if (!node.online) return base;
  return {
    ...base,
    cpu: node.cpu,
    maxcpu: node.maxcpu,
    mem: node.mem,
    maxmem: node.maxmem,
    disk: node.disk,
    maxdisk: node.maxdisk,
    uptime: Math.floor(Date.now() / 1000) - node.bootTime,
  };
}

/** A container as `/nodes/{node}/lxc` and `/cluster/resources` list it. */
export function containerRow(ct: PveContainer): Record<string, unknown> {
  const running = ct.status === 'running';
  const uptime = running && ct.startedAt ? Math.floor((Date.now() - ct.startedAt) / 1000) : 0;
  const maxmem = Number(ct.config.memory ?? 512) * 1024 ** 2;
  const size = /size=(\d+(?:\.\d+)?)G/.exec(String(ct.config.rootfs ?? ''));
  const row: Record<string, unknown> = {
    vmid: ct.vmid,
    name: String(ct.config.hostname ?? `CT${ct.vmid}`),
    node: ct.node,
    status: ct.status,
    type: 'lxc',
    cpus: Number(ct.config.cores ?? 1),
    maxcpu: Number(ct.config.cores ?? 1),
    cpu: running ? 0.0123 : 0,
    maxmem,
    mem: running ? Math.floor(maxmem / 8) : 0,
    maxswap: Number(ct.config.swap ?? 512) * 1024 ** 2,
    swap: 0,
    maxdisk: size ? Number(size[1]) * GiB : 4 * GiB,
    disk: running ? 512 * 1024 ** 2 : 0,
    uptime,
    // Counters since the start: a steady 1000 B/s in and 500 B/s out.
    netin: running ? 12_345 + uptime * 1000 : 0,
    netout: running ? 6_789 + uptime * 500 : 0,
    diskread: running ? 1_048_576 : 0,
    diskwrite: running ? 65_536 : 0,
    template: Number(ct.config.template ?? 0),
  };
  if (running && ct.pid) row.pid = ct.pid;
  if (ct.config.tags) row.tags = ct.config.tags;
  if (ct.lock) row.lock = ct.lock;
  return row;
}

function capabilities(): Record<string, Record<string, number>> {
  const all = (privs: string[]) => Object.fromEntries(privs.map((p) => [p, 1]));
  return {
    vms: all(['VM.Allocate', 'VM.Audit', 'VM.Config.Disk', 'VM.Config.Network', 'VM.PowerMgmt']),
    storage: all([
      'Datastore.Allocate',
      'Datastore.AllocateSpace',
      'Datastore.AllocateTemplate',
      'Datastore.Audit',
    ]),
    nodes: all(['Sys.Audit', 'Sys.Modify', 'Sys.PowerMgmt', 'Sys.Console']),
    access: all(['User.Modify', 'Permissions.Modify']),
    dc: all(['Sys.Audit', 'SDN.Audit']),
    sdn: all(['SDN.Audit', 'SDN.Use']),
    mapping: all(['Mapping.Audit', 'Mapping.Use']),
  };
}
