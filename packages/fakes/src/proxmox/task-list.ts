import type { PveTask } from './tasks.ts';

/** The task-state words of `statusfilter` (pve-task-status-type-list) and which exit statuses they take. */
const STATUS_KINDS: Record<string, (task: PveTask) => boolean> = {
  ok: (task) => task.exitstatus === 'OK',
  warning: (task) => !!task.exitstatus?.startsWith('WARNINGS'),
  error: (task) => !!task.exitstatus && task.exitstatus !== 'OK' && !task.exitstatus.startsWith('WARNINGS'),
  unknown: (task) => task.status === 'stopped' && !task.exitstatus,
};

const matchesStatus = (filter: string, task: PveTask) =>
  filter
    .split(/[,;\s]+/)
    .filter(Boolean)
    .some((kind) => STATUS_KINDS[kind.toLowerCase()]?.(task));

/**
 * `GET /nodes/{node}/tasks` as PVE answers it: the node's tasks newest first, filtered by its parameters
 * (`source` archive: finished ones, the default), paged by `start`/`limit`, with `total` before paging.
 */
export function listTasks(
  all: Iterable<PveTask>,
  node: string,
  params: Record<string, string | number>,
): { rows: Record<string, unknown>[]; total: number } {
  const source = String(params.source ?? 'archive');
  const matching = [...all].filter((task) => {
    if (task.node !== node) return false;
    if (source === 'archive' && task.status !== 'stopped') return false;
    if (source === 'active' && task.status !== 'running') return false;
    if (params.vmid !== undefined && task.id !== String(params.vmid)) return false;
    if (params.since !== undefined && task.starttime < Number(params.since)) return false;
    if (params.until !== undefined && task.starttime > Number(params.until)) return false;
    if (params.typefilter !== undefined && task.type !== params.typefilter) return false;
    if (params.userfilter !== undefined && !task.user.includes(String(params.userfilter))) return false;
    if (Number(params.errors ?? 0) && !STATUS_KINDS.error!(task)) return false;
    if (params.statusfilter !== undefined && !matchesStatus(String(params.statusfilter), task)) return false;
    return true;
  });
  matching.sort((a, b) => b.starttime - a.starttime || b.pid - a.pid);
  const start = Number(params.start ?? 0);
  const limit = Number(params.limit ?? 50);
  const rows = matching.slice(start, start + limit).map((task) => ({
    upid: task.upid,
    node: task.node,
    pid: task.pid,
    pstart: task.pstart,
    starttime: task.starttime,
    type: task.type,
    id: task.id,
    user: task.tokenid ? `${task.user}!${task.tokenid}` : task.user,
    ...(task.endtime === undefined ? {} : { endtime: task.endtime }),
    ...(task.exitstatus === undefined ? {} : { status: task.exitstatus }),
  }));
  return { rows, total: matching.length };
}
