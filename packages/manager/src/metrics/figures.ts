import type { MetricFigures } from '../db/schema.ts';
import type { UsageSample } from '../providers/types.ts';

const percent = (value: number | undefined, limit: number | undefined) =>
  value !== undefined && limit ? (value / limit) * 100 : null;

/** The figures of a reading other than traffic: absolute, and as a percentage of the allocation. */
export function levelsOf(usage: Omit<UsageSample, 'netInTotal' | 'netOutTotal'>) {
  return {
    cpu_cores: usage.cpuCores ?? null,
    cpu_pct: percent(usage.cpuCores, usage.cpuLimit),
    mem_bytes: usage.memoryBytes ?? null,
    mem_pct: percent(usage.memoryBytes, usage.memoryLimit),
    disk_bytes: usage.diskBytes ?? null,
    disk_pct: percent(usage.diskBytes, usage.diskLimit),
  } satisfies Omit<MetricFigures, 'net_in_bps' | 'net_out_bps'>;
}
