import type { FastifyBaseLogger } from 'fastify';
import type { MetricsSampler } from './metrics-sampler.ts';
import type { MetricsHistory } from './metrics-history.ts';

const MAINTAIN_MS = 3600_000;

/** Runs the sampler every interval and the history's upkeep hourly (both skip a round still running). */
export class MetricsSchedule {
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly sampler: MetricsSampler,
    private readonly history: MetricsHistory,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.timers.length) return;
    this.timers = [
      this.every(this.intervalMs, 'metrics sampling', () => this.sampler.sampleOnce()),
      this.every(MAINTAIN_MS, 'metrics rollup', () => this.history.maintain()),
    ];
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  private every(ms: number, what: string, work: () => Promise<unknown>): NodeJS.Timeout {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      work()
        .catch((error: unknown) => this.log.error({ err: error }, `${what} failed`))
        .finally(() => (running = false));
    }, ms);
    timer.unref();
    return timer;
  }
}
