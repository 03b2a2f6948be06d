import type { FastifyBaseLogger } from 'fastify';
import type { MetricFigures, MetricSubject } from '../db/schema.ts';
import type { NodesService } from '../nodes/nodes-service.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { UsageSample } from '../providers/types.ts';
import type { MetricsRepository, SubjectSample } from './metrics-repository.ts';
import { backfill, type SampledInstance } from './metrics-backfill.ts';
import { levelsOf } from './figures.ts';

export const SAMPLER_LEASE = 'metrics-sampler';

export interface SamplerOptions {
  /** Epoch ms; tests drive it. */
  clock: () => number;
  /** This process, as the lease names it. */
  owner: string;
  intervalMs: number;
  /** Run after each stored round with its time (the alert rules); a failure is logged, not thrown. */
  afterRound?: (at: number) => Promise<void>;
}

interface Counters {
  at: number;
  in?: number | undefined;
  out?: number | undefined;
}

/** Bytes per second since the previous reading; null without one or when the counter went back (a restart). */
function rate(now: number | undefined, before: number | undefined, seconds: number): number | null {
  if (now === undefined || before === undefined || seconds <= 0 || now < before) return null;
  return (now - before) / seconds;
}

/** The sum of the known rates; null when none is known. */
function sumOf(rates: Array<number | null>): number | null {
  const known = rates.filter((r): r is number => r !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
}

/**
 * One sampling round every `intervalMs`, in the one process holding the sampler lease: one usage call
 * per node (its containers' figures included), stored as 1-minute samples. Network counters become
 * rates against the previous round's reading, kept in memory (the first round after taking the lease
 * has none). A container whose history has a gap (the manager was down, its node unreachable) gets it
 * filled from its node's own record where there is one (see metrics-backfill.ts).
 */
export class MetricsSampler {
  /** The last round's counter readings (only of the subjects it sampled, so the map stays bounded). */
  private counters = new Map<string, Counters>();

  constructor(
    private readonly repo: MetricsRepository,
    private readonly nodes: NodesService,
    private readonly providers: ProviderRegistry,
    private readonly options: SamplerOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Samples every node unless another process holds the lease; returns the number of samples stored. */
  async sampleOnce(): Promise<number> {
    const at = this.options.clock();
    // Held for two intervals: a round that runs long keeps it, a dead process loses it.
    if (!(await this.repo.holdLease(SAMPLER_LEASE, this.options.owner, at, 2 * this.options.intervalMs))) {
      this.counters = new Map();
      return 0;
    }
    const { nodeIds, containers } = await this.repo.subjects();
    const byInstance = new Map(containers.map((c) => [`${c.node_id}/${c.container_id}`, c.id]));
    const connections = await this.nodes.connectionsByIds(nodeIds);
    const samples: SubjectSample[] = [];
    const sampled: SampledInstance[] = [];
    const readings = new Map<string, Counters>();
    await Promise.all(
      connections.map(async (node) => {
        const usage = await this.providers.usage(node, at);
        if ('failed' in usage) {
          this.log.debug({ node: node.name, reason: usage.failed }, 'metrics: node not sampled');
          return;
        }
        const nodeSample = this.sample('node', node.id, usage.node, at, readings);
        const instanceSamples: SubjectSample[] = [];
        const rates: SubjectSample[] = [];
        for (const [instance, figures] of usage.instances) {
          const id = byInstance.get(`${node.id}/${instance}`);
          // An instance the manager does not hold is not stored, but its traffic is the node's too.
          const sample =
            id !== undefined
              ? this.sample('container', id, figures, at, readings)
              : this.sample('container', 0, figures, at, readings, `unheld/${node.id}/${instance}`);
          if (id !== undefined) {
            instanceSamples.push(sample);
            sampled.push({ node, instance, id });
          }
          rates.push(sample);
        }
        if (usage.trafficOfInstances) {
          nodeSample.net_in_bps = sumOf(rates.map((s) => s.net_in_bps));
          nodeSample.net_out_bps = sumOf(rates.map((s) => s.net_out_bps));
        }
        samples.push(nodeSample, ...instanceSamples);
      }),
    );
    this.counters = readings;
    await backfill(this.repo, this.providers, sampled, at, this.options.intervalMs).catch((error: unknown) =>
      this.log.warn({ err: error }, 'metrics: a gap not filled'),
    );
    await this.repo.record(at, samples);
    await this.options
      .afterRound?.(at)
      .catch((error: unknown) => this.log.error({ err: error }, 'after a metrics round'));
    return samples.length;
  }

  private sample(
    type: MetricSubject,
    id: number,
    usage: UsageSample,
    at: number,
    readings: Map<string, Counters>,
    key = `${type}/${id}`,
  ): SubjectSample {
    const before = this.counters.get(key);
    readings.set(key, { at, in: usage.netInTotal, out: usage.netOutTotal });
    const seconds = before ? (at - before.at) / 1000 : 0;
    const figures: MetricFigures = {
      ...levelsOf(usage),
      net_in_bps: rate(usage.netInTotal, before?.in, seconds),
      net_out_bps: rate(usage.netOutTotal, before?.out, seconds),
    };
    return { subject_type: type, subject_id: id, ...figures };
  }
}
