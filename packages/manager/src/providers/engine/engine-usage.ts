import type { NodeUsage, UsageSample } from '../types.ts';
import type { EngineClient } from './engine-client.ts';
import { eachBounded } from '../../common/each-bounded.ts';

/** The Docker Engine API has no list form of stats: at most this many `/stats` calls run at once per node. */
export const STATS_CONCURRENCY = 8;

interface CpuStats {
  cpu_usage?: { total_usage?: number };
  system_cpu_usage?: number;
  online_cpus?: number;
}

/** `GET /containers/{id}/stats?stream=false`: the fields read here (cgroup v1 and v2). */
export interface EngineStats {
  cpu_stats?: CpuStats;
  precpu_stats?: CpuStats;
  memory_stats?: { usage?: number; limit?: number; stats?: { inactive_file?: number; cache?: number } };
  networks?: Record<string, { rx_bytes?: number; tx_bytes?: number }>;
}

/** CPUs kept busy between the two readings the engine gives (its own `docker stats` formula). */
function busyCores(stats: EngineStats): number | undefined {
  const now = stats.cpu_stats;
  const before = stats.precpu_stats;
  const used = (now?.cpu_usage?.total_usage ?? 0) - (before?.cpu_usage?.total_usage ?? 0);
  const system = (now?.system_cpu_usage ?? 0) - (before?.system_cpu_usage ?? 0);
  if (!now?.online_cpus || system <= 0 || used < 0) return undefined;
  return (used / system) * now.online_cpus;
}

export function sampleOfStats(stats: EngineStats): UsageSample {
  const memory = stats.memory_stats;
  const cache = memory?.stats?.inactive_file ?? memory?.stats?.cache ?? 0;
  const networks = Object.values(stats.networks ?? {});
  const sum = (pick: (n: { rx_bytes?: number; tx_bytes?: number }) => number | undefined) =>
    networks.length ? networks.reduce((total, n) => total + (pick(n) ?? 0), 0) : undefined;
  const sample: UsageSample = {
    cpuCores: busyCores(stats),
    cpuLimit: stats.cpu_stats?.online_cpus,
    memoryBytes: memory?.usage === undefined ? undefined : Math.max(memory.usage - cache, 0),
    memoryLimit: memory?.limit,
    netInTotal: sum((n) => n.rx_bytes),
    netOutTotal: sum((n) => n.tx_bytes),
  };
  return Object.fromEntries(Object.entries(sample).filter(([, v]) => v !== undefined)) as UsageSample;
}

/**
 * The running containers' stats (one call each, bounded) and the engine's totals. The engine does not
 * report the host's own load: the node's figures are the sum of its containers' against `/info`'s
 * CPUs and memory.
 */
export async function engineUsage(
  client: EngineClient,
  info: { NCPU?: number; MemTotal?: number },
  signal: AbortSignal,
): Promise<NodeUsage> {
  const running =
    (await client.json<Array<{ Id: string }>>({ method: 'GET', path: '/containers/json', signal })).body ??
    [];
  const instances = new Map<string, UsageSample>();
  await eachBounded(running, STATS_CONCURRENCY, async ({ Id }) => {
    const { body } = await client.json<EngineStats>(
      {
        method: 'GET',
        path: `/containers/${encodeURIComponent(Id)}/stats`,
        query: { stream: false },
        signal,
      },
      [200],
    );
    if (body) instances.set(Id, sampleOfStats(body));
  });
  const total = (pick: (s: UsageSample) => number | undefined) =>
    [...instances.values()].reduce((sum, s) => sum + (pick(s) ?? 0), 0);
  return {
    node: {
      cpuCores: total((s) => s.cpuCores),
      cpuLimit: Number(info.NCPU ?? 0) || undefined,
      memoryBytes: total((s) => s.memoryBytes),
      memoryLimit: Number(info.MemTotal ?? 0) || undefined,
    },
    instances,
    trafficOfInstances: true,
  };
}
