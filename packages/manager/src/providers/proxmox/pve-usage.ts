import type { NodeUsage, UsagePoint, UsageSample } from '../types.ts';
import type { PveClient } from './pve-client.ts';

/** A `/cluster/resources` row: the fields read here (see the schema's `returns`). */
interface PveResource {
  type: string;
  node?: string;
  vmid?: number;
  status?: string;
  cpu?: number;
  maxcpu?: number;
  mem?: number;
  maxmem?: number;
  disk?: number;
  maxdisk?: number;
  netin?: number;
  netout?: number;
}

const number = (value: unknown) => (value === undefined || value === null ? undefined : Number(value));

/** `cpu` is a fraction of `maxcpu`; `netin`/`netout` are bytes since the guest started. */
function sampleOf(row: PveResource): UsageSample {
  const cpu = number(row.cpu);
  const maxcpu = number(row.maxcpu);
  const sample: UsageSample = {
    cpuCores: cpu !== undefined && maxcpu !== undefined ? cpu * maxcpu : undefined,
    cpuLimit: maxcpu,
    memoryBytes: number(row.mem),
    memoryLimit: number(row.maxmem),
    diskBytes: number(row.disk),
    diskLimit: number(row.maxdisk),
    netInTotal: number(row.netin),
    netOutTotal: number(row.netout),
  };
  return Object.fromEntries(Object.entries(sample).filter(([, v]) => v !== undefined)) as UsageSample;
}

/**
 * One `GET /cluster/resources` gives the current figures of the node and of every guest (the rrddata
 * series hold averages the node computed, one call per guest). The node row has no traffic counters.
 */
export async function pveUsage(client: PveClient, nodeName: string, signal: AbortSignal): Promise<NodeUsage> {
  const rows = await client.get<PveResource[]>('/cluster/resources', {}, signal);
  const mine = rows.filter((row) => row.node === nodeName);
  const nodeRow = mine.find((row) => row.type === 'node');
  const instances = new Map<string, UsageSample>();
  for (const row of mine) {
    if (row.type === 'lxc' && row.status === 'running') instances.set(String(row.vmid), sampleOf(row));
  }
  return { node: nodeRow ? sampleOf(nodeRow) : {}, instances };
}

/** An `rrddata` row: `time` (epoch s), then averages over its step; a step with no data has only `time`. */
interface PveRrdRow extends Omit<PveResource, 'type'> {
  time: number;
}

/**
 * The container's last hour as its node recorded it (`rrddata`, timeframe `hour`: a row a minute).
 * Rows without figures (the container was not running) are left out.
 */
export async function pveUsageHistory(
  client: PveClient,
  nodeName: string,
  vmid: string,
  signal: AbortSignal,
): Promise<UsagePoint[]> {
  const rows = await client.get<PveRrdRow[]>(
    `/nodes/${encodeURIComponent(nodeName)}/lxc/${encodeURIComponent(vmid)}/rrddata`,
    { timeframe: 'hour', cf: 'AVERAGE' },
    signal,
  );
  return rows
    .filter((row) => row.cpu !== undefined)
    .map((row) => {
      const {
        netInTotal: netInRate,
        netOutTotal: netOutRate,
        ...figures
      } = sampleOf({ ...row, type: 'lxc' });
      return { at: row.time * 1000, ...figures, netInRate, netOutRate };
    });
}
