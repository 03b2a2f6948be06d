import type { Router } from '../shared/router.ts';
import { jsonReply, FakeHttpError } from '../shared/types.ts';
import type { DockerRouteContext } from './routes.ts';
import type { DockerContainer } from './containers.ts';
import { queryBool } from './format.ts';

/** The host's memory as `/info` reports it (`MemTotal`): a container without a limit has this one. */
export const HOST_MEMORY = 33_554_432_000;
/** What a running container of the fake does: a quarter of a CPU, 64 MiB (plus 8 MiB of page cache), steady traffic. */
export const SIMULATED = {
  cores: 0.25,
  memory: 64 * 1024 ** 2,
  cache: 8 * 1024 ** 2,
  rxPerS: 1000,
  txPerS: 500,
};
const NS = 1e9;
/** A stats reading the engine took, and the one `precpu_stats` holds (the engine waits a second between). */
const PRECPU_GAP_S = 1;

function cpuStats(c: DockerContainer, cpus: number, atS: number) {
  const runS = Math.max(atS - c.startedMs / 1000, 0);
  return {
    cpu_usage: {
      total_usage: Math.round(runS * SIMULATED.cores * NS),
      usage_in_kernelmode: Math.round(runS * SIMULATED.cores * NS * 0.2),
      usage_in_usermode: Math.round(runS * SIMULATED.cores * NS * 0.8),
    },
    system_cpu_usage: Math.round(atS * cpus * NS),
    online_cpus: cpus,
    throttling_data: { periods: 0, throttled_periods: 0, throttled_time: 0 },
  };
}

/**
 * `GET /containers/{id}/stats` with `stream=false` (the only form the manager uses): one reading with
 * the previous one in `precpu_stats`, cgroup v2 memory figures, per-interface byte counters. A stopped
 * container answers zeroed figures, as the engine does.
 */
export function registerStatsRoutes(router: Router, ctx: DockerRouteContext): void {
  router.get('/containers/:id/stats', (req) => {
    const c = ctx.containers.find(req.params.id!);
    if (queryBool(req.query.get('stream'), true)) {
      throw new FakeHttpError(400, 'the fake answers stream=false only');
    }
    const cpus = ctx.containers.options.cpus;
    const running = c.status === 'running';
    const nowS = Date.now() / 1000;
    const limit = Number(c.hostConfig.Memory ?? 0) || HOST_MEMORY;
    const runS = Math.max(nowS - c.startedMs / 1000, 0);
    const zeroCpu = { cpu_usage: { total_usage: 0 }, throttling_data: {} };
    return jsonReply(200, {
      name: `/${c.name}`,
      id: c.id,
      read: running ? new Date(nowS * 1000).toISOString() : '0001-01-01T00:00:00Z',
      preread: running ? new Date((nowS - PRECPU_GAP_S) * 1000).toISOString() : '0001-01-01T00:00:00Z',
      pids_stats: running ? { current: 1, limit: 4096 } : {},
      num_procs: 0,
      cpu_stats: running ? cpuStats(c, cpus, nowS) : zeroCpu,
      precpu_stats: running ? cpuStats(c, cpus, nowS - PRECPU_GAP_S) : zeroCpu,
      memory_stats: running
        ? {
            usage: SIMULATED.memory + SIMULATED.cache,
            stats: { inactive_file: SIMULATED.cache, active_file: 0, anon: SIMULATED.memory },
            limit,
          }
        : {},
      ...(running
        ? {
            networks: {
              eth0: {
                rx_bytes: Math.round(runS * SIMULATED.rxPerS),
                rx_packets: Math.round(runS),
                rx_errors: 0,
                rx_dropped: 0,
                tx_bytes: Math.round(runS * SIMULATED.txPerS),
                tx_packets: Math.round(runS),
                tx_errors: 0,
                tx_dropped: 0,
              },
            },
          }
        : {}),
      blkio_stats: { io_service_bytes_recursive: null },
      storage_stats: {},
    });
  });
}
