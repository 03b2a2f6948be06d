import type { MetricFigures, MetricSubject } from '../db/schema.ts';
import { HOUR_S, MINUTE_S, type MetricsRepository, type SortFigure } from './metrics-repository.ts';

const DAY_MS = 24 * 3600_000;
/** 1-minute samples are kept this long, hourly averages this long. */
export const RETENTION = { minuteMs: 2 * DAY_MS, hourMs: 60 * DAY_MS };

/** Each range and the resolution that answers it (at most 1,440 points). */
export const RANGES = {
  '1h': { ms: 3600_000, resolution: MINUTE_S },
  '24h': { ms: DAY_MS, resolution: MINUTE_S },
  '7d': { ms: 7 * DAY_MS, resolution: HOUR_S },
  '60d': { ms: 60 * DAY_MS, resolution: HOUR_S },
} as const;
export type MetricsRange = keyof typeof RANGES;

/** A sample as the API shows it. */
export interface MetricPoint {
  at: string;
  cpuCores: number | null;
  cpuPercent: number | null;
  memoryBytes: number | null;
  memoryPercent: number | null;
  diskBytes: number | null;
  diskPercent: number | null;
  netInBytesPerSecond: number | null;
  netOutBytesPerSecond: number | null;
}

const num = (value: number | string | null) => (value === null ? null : Number(value));

export function toPoint(row: MetricFigures & { at_ms: number }): MetricPoint {
  return {
    at: new Date(Number(row.at_ms)).toISOString(),
    cpuCores: num(row.cpu_cores),
    cpuPercent: num(row.cpu_pct),
    memoryBytes: num(row.mem_bytes),
    memoryPercent: num(row.mem_pct),
    diskBytes: num(row.disk_bytes),
    diskPercent: num(row.disk_pct),
    netInBytesPerSecond: num(row.net_in_bps),
    netOutBytesPerSecond: num(row.net_out_bps),
  };
}

export const SORTS = {
  cpu: 'cpu_pct',
  memory: 'mem_pct',
  disk: 'disk_bytes',
  network: 'net',
  lastAccess: 'last_access',
} as const satisfies Record<string, SortFigure>;
export type ConsumerSort = keyof typeof SORTS;

/** Reads of the metrics history, and its upkeep: hourly averages, then pruning by age. */
export class MetricsHistory {
  constructor(
    readonly repo: MetricsRepository,
    private readonly clock: () => number,
  ) {}

  /** Rolls up the whole hours not rolled up yet, then drops what is past its retention. */
  async maintain() {
    const now = this.clock();
    const hourly = await this.repo.rollup(now);
    const minutesPruned = await this.repo.prune(MINUTE_S, now - RETENTION.minuteMs);
    const hoursPruned = await this.repo.prune(HOUR_S, now - RETENTION.hourMs);
    await this.repo.pruneLatest(now - RETENTION.minuteMs);
    return { hourly, minutesPruned, hoursPruned };
  }

  async history(type: MetricSubject, id: number, range: MetricsRange) {
    const { ms, resolution } = RANGES[range];
    const rows = await this.repo.history(type, id, resolution, this.clock() - ms);
    return { range, resolutionSeconds: resolution, points: rows.map(toPoint) };
  }

  /** Every node's and container's latest figures. */
  async latest() {
    return (await this.repo.latest()).map((row) => ({
      subject: row.subject_type,
      id: row.subject_id,
      figures: toPoint(row),
    }));
  }

  async top(siteId: number, sort: ConsumerSort, limit: number) {
    const rows = await this.repo.topContainers(siteId, SORTS[sort], limit);
    return rows.map((row) => ({
      containerId: row.subject_id,
      hostname: row.hostname,
      nodeName: row.node_name,
      lastAccessedAt: row.last_accessed_at,
      ...toPoint(row),
    }));
  }
}
