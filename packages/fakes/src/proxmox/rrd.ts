import { containerRow } from './routes-cluster.ts';
import type { PveContainer } from './state.ts';

/** The step of each `rrddata` timeframe, as Proxmox VE's RRD archives keep them; 70 points each. */
export const RRD_STEP_S = { hour: 60, day: 1800, week: 10_800, month: 43_200, year: 604_800 } as const;
export type RrdTimeframe = keyof typeof RRD_STEP_S;
const POINTS = 70;

/**
 * A container's `rrddata`: one row per step up to now, oldest first. A step while it ran has its
 * averages — the figures `/cluster/resources` shows, traffic as bytes per second (the steady 1000 in,
 * 500 out its counters grow by); a step before it started has only `time`, as a real node leaves
 * unknown values out.
 */
export function containerRrd(
  ct: PveContainer,
  timeframe: RrdTimeframe,
  nowMs: number,
): Record<string, number>[] {
  const step = RRD_STEP_S[timeframe];
  const last = Math.floor(nowMs / 1000 / step) * step;
  const row = containerRow(ct);
  const figures = {
    cpu: Number(row.cpu),
    maxcpu: Number(row.maxcpu),
    mem: Number(row.mem),
    maxmem: Number(row.maxmem),
    disk: Number(row.disk),
    maxdisk: Number(row.maxdisk),
    netin: 1000,
    netout: 500,
    diskread: 0,
    diskwrite: 0,
  };
  const ranAt = (time: number) =>
    ct.status === 'running' && ct.startedAt !== undefined && ct.startedAt <= time * 1000;
  return Array.from({ length: POINTS }, (_, i) => {
    const time = last - (POINTS - 1 - i) * step;
    return ranAt(time) ? { time, ...figures } : { time };
  });
}
