import type { Router } from '../shared/router.ts';
import { API, identity, ok, onlineNode } from './context.ts';
import type { PveContext } from './context.ts';
import { paramError, pveError } from './errors.ts';
import type { PveStorage } from './state.ts';
import { listTasks } from './task-list.ts';

const NODE = `${API}/nodes/:node`;

/** Node status, storages and their content, the task list, task status and log, OCI pulls (9.1+). */
export function registerNodeRoutes(router: Router, ctx: PveContext): void {
  router.get(`${NODE}/status`, (req) => {
    const node = onlineNode(ctx, req);
    const GiB = 1024 ** 3;
    const memUsed =
      node.mem +
      [...ctx.state.containers.values()].filter((c) => c.node === node.name && c.status === 'running')
        .length *
        64 *
        1024 ** 2;
    return ok({
      cpu: node.cpu,
      wait: 0.0012,
      idle: 0,
      uptime: Math.floor(Date.now() / 1000) - node.bootTime,
      loadavg: node.loadavg,
      memory: {
        total: node.maxmem,
        used: memUsed,
        free: node.maxmem - memUsed,
        available: node.maxmem - memUsed,
      },
      swap: { total: node.swapTotal, used: node.swapUsed, free: node.swapTotal - node.swapUsed },
      rootfs: {
        total: node.maxdisk,
        used: node.disk,
        free: node.maxdisk - node.disk,
        avail: node.maxdisk - node.disk - GiB,
      },
      ksm: { shared: 0 },
      cpuinfo: {
        model: 'AMD EPYC 7302P 16-Core Processor',
        sockets: 1,
        cpus: node.maxcpu,
        cores: node.maxcpu,
        mhz: '3000.000',
        flags: 'fpu vme de pse tsc msr pae mce',
        hvm: '1',
        user_hz: 100,
      },
      kversion: 'Linux 6.8.12-4-pve #1 SMP PREEMPT_DYNAMIC PMX 6.8.12-4 (2024-11-06T15:04Z)',
      pveversion: `pve-manager/${ctx.version.version}/${ctx.version.repoid}`,
      'current-kernel': {
        sysname: 'Linux',
        release: '6.8.12-4-pve',
        version: '#1 SMP PREEMPT_DYNAMIC PMX 6.8.12-4 (2024-11-06T15:04Z)',
        machine: node.machine,
      },
      'boot-info': { mode: 'efi', secureboot: 0 },
    });
  });

  router.get(`${NODE}/storage`, (req) => {
    const node = onlineNode(ctx, req);
    const params = ctx.params(req);
    let storages = [...node.storages.values()];
    if (params.storage !== undefined) {
      storages = storages.filter((s) => s.storage === params.storage);
      if (!storages.length) throw paramError({ storage: 'No such storage.' });
    }
    if (params.content !== undefined) {
      const wanted = String(params.content).split(',');
      storages = storages.filter((s) => s.enabled && wanted.some((c) => s.content.includes(c)));
    }
    if (params.enabled === 1) storages = storages.filter((s) => s.enabled);
    return ok(storages.map(storageRow));
  });

  router.get(`${NODE}/storage/:storage/content`, (req) => {
    const node = onlineNode(ctx, req);
    const storage = ctx.state.storage(node, req.params.storage!);
    const params = ctx.params(req);
    const volumes = storage.volumes.filter(
      (v) =>
        (params.content === undefined || v.content === params.content) &&
        (params.vmid === undefined || v.vmid === params.vmid),
    );
    return ok(volumes);
  });

  router.post(`${NODE}/storage/:storage/oci-registry-pull`, (req) => {
    if (!ctx.oci) {
      throw pveError(
        501,
        `Method 'POST /nodes/${req.params.node}/storage/${req.params.storage}/oci-registry-pull' not implemented`,
      );
    }
    const node = onlineNode(ctx, req);
    const storage = ctx.state.storage(node, req.params.storage!);
    const params = ctx.params(req);
    const reference = String(params.reference);
    if (!storage.content.includes('vztmpl'))
      throw pveError(500, `storage '${storage.storage}' is not configured for content-type 'vztmpl'`);
    const base = String(params.filename ?? reference.split('/').pop()).replace(/[^A-Za-z0-9_.-]/g, '_');
    const filename = `${base}.tar`;
    const volid = `${storage.storage}:vztmpl/${filename}`;
    if (storage.volumes.some((v) => v.volid === volid))
      throw pveError(500, `refusing to override existing file '${filename}'`);
    const known = ctx.ociTemplates.get(volid) ?? ctx.ociTemplates.get(reference);
    const { user, tokenid } = identity(ctx, req);
    const task = ctx.tasks.start(
      node.name,
      'ociregistrypull',
      filename,
      { user, tokenid },
      {
        lines: [
          `Copying blob sha256:${'0'.repeat(64)}`,
          'Copying config',
          'Writing manifest to image destination',
        ],
        run: () => {
          if (!known) throw new Error(`failed to pull '${reference}': manifest unknown`);
          ctx.ociTemplates.set(volid, known);
          ctx.state.addVolume(node, storage.storage, {
            name: filename,
            content: 'vztmpl',
            format: 'tar',
            size: 48 * 1024 ** 2,
          });
        },
      },
    );
    return ok(task.upid);
  });

  router.get(`${NODE}/tasks`, (req) => {
    const node = onlineNode(ctx, req);
    const { rows, total } = listTasks(ctx.tasks.tasks.values(), node.name, ctx.params(req));
    return ok(rows, { total });
  });

  router.get(`${NODE}/tasks/:upid/status`, (req) => {
    onlineNode(ctx, req);
    const task = ctx.tasks.get(req.params.upid!);
    const { log: _log, endtime: _endtime, ...status } = task;
    return ok(status);
  });

  router.get(`${NODE}/tasks/:upid/log`, (req) => {
    onlineNode(ctx, req);
    const task = ctx.tasks.get(req.params.upid!);
    const params = ctx.params(req);
    const start = Number(params.start ?? 0);
    const limit = Number(params.limit ?? 50);
    const lines = task.log.length ? task.log : ['no content'];
    const slice = lines.slice(start, limit === 0 ? undefined : start + limit);
    return ok(
      slice.map((t, i) => ({ n: start + i + 1, t })),
      { total: lines.length },
    );
  });
}

function storageRow(s: PveStorage): Record<string, unknown> {
  const active = s.active && s.enabled;
  const row: Record<string, unknown> = {
    storage: s.storage,
    type: s.type,
    content: s.content.join(','),
    enabled: s.enabled ? 1 : 0,
    active: active ? 1 : 0,
    shared: s.shared ? 1 : 0,
    total: active ? s.total : 0,
    used: active ? s.used : 0,
    avail: active ? s.total - s.used : 0,
  };
  if (active && s.total > 0) row.used_fraction = s.used / s.total;
  return row;
}
