import { eachBounded } from '../common/each-bounded.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { NodeConnection } from '../providers/types.ts';
import { levelsOf } from './figures.ts';
import type { MetricsRepository, PastSample } from './metrics-repository.ts';

/** A held container sampled in this round, and where to ask for its past. */
export interface SampledInstance {
  node: NodeConnection;
  instance: string;
  id: number;
}

/** Proxmox VE's `rrddata` timeframe `hour` reaches 70 minutes back: longer gaps stay gaps. */
const BACKFILL_MAX_MS = 60 * 60_000;
/** A round after a long outage asks about this many containers at most (the rest keep their gap). */
const BACKFILL_PER_ROUND = 200;
const BACKFILL_CONCURRENCY = 8;

/**
 * Fills the minutes missing from a container's history since its last sample — more than two rounds
 * missed, at most an hour — with what its node itself recorded, where the node records anything
 * (Proxmox VE's `rrddata`; engines and the dummy node have nothing to give). Runs before the round is
 * stored, so the last sample still marks where the gap starts. Returns how many samples it added.
 */
export async function backfill(
  repo: Pick<MetricsRepository, 'latestTimes' | 'recordPast'>,
  providers: Pick<ProviderRegistry, 'usageHistory'>,
  sampled: SampledInstance[],
  at: number,
  intervalMs: number,
): Promise<number> {
  const previous = await repo.latestTimes(
    'container',
    sampled.map((s) => s.id),
  );
  const gapped = sampled
    .filter(({ id }) => {
      const last = previous.get(id);
      return last !== undefined && at - last > 2 * intervalMs && at - last <= BACKFILL_MAX_MS;
    })
    .slice(0, BACKFILL_PER_ROUND);
  const found: PastSample[] = [];
  await eachBounded(gapped, BACKFILL_CONCURRENCY, async ({ node, instance, id }) => {
    const last = previous.get(id)!;
    for (const point of await providers.usageHistory(node, instance)) {
      if (point.at <= last + intervalMs / 2 || point.at >= at - intervalMs / 2) continue;
      found.push({
        subject_type: 'container',
        subject_id: id,
        at_ms: point.at,
        ...levelsOf(point),
        net_in_bps: point.netInRate ?? null,
        net_out_bps: point.netOutRate ?? null,
      });
    }
  });
  return repo.recordPast(found);
}
