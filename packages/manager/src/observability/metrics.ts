import { Gauge, Histogram } from 'prom-client';
import { ServiceMetrics, type JobOutcome } from '@app/server-kit';

export interface ManagerGaugeSources {
  /** Jobs waiting and running, by command and status. */
  activeJobs(): Promise<{ command: string; status: string; count: number }[]>;
  /** Every site agent with its last check-in. */
  agents(): Promise<
    { siteId: number; siteName: string | null; hostname: string; secondsSinceCheckin: number | null }[]
  >;
  /** Job streams (SSE) open in this process. */
  sseConnections(): number;
  /** Each node's and container's latest usage sample (figures it does not report are absent). */
  usage(): Promise<SubjectUsage[]>;
}

/** The usage gauges, by the figure each shows. */
export const USAGE_GAUGES = {
  cpuCores: ['manager_usage_cpu_cores', 'CPUs kept busy'],
  cpuPercent: ['manager_usage_cpu_percent', 'CPU use, percent of the CPUs allocated (a node: it has)'],
  memoryBytes: ['manager_usage_memory_bytes', 'Memory in use, bytes'],
  memoryPercent: ['manager_usage_memory_percent', 'Memory in use, percent of the memory allocated'],
  diskBytes: ['manager_usage_disk_bytes', 'Root disk in use, bytes'],
  diskPercent: ['manager_usage_disk_percent', 'Root disk in use, percent of the disk allocated'],
  netInBytesPerSecond: ['manager_usage_network_receive_bytes_per_second', 'Traffic received, bytes/s'],
  netOutBytesPerSecond: ['manager_usage_network_transmit_bytes_per_second', 'Traffic sent, bytes/s'],
} as const;
export type UsageFigure = keyof typeof USAGE_GAUGES;

export interface SubjectUsage {
  subject: 'node' | 'container';
  id: number;
  figures: Partial<Record<UsageFigure, number | null>>;
}

/** How long one read of the latest samples serves the usage gauges (all read within one scrape). */
const USAGE_READ_MS = 1000;

/**
 * The manager's metrics beside the HTTP ones: job durations (observed by the worker), the job queue,
 * agents' check-in age and open job streams (read when scraped), cache hits (see ServiceMetrics.cache).
 */
export class ManagerMetrics extends ServiceMetrics {
  private readonly jobDuration = new Histogram({
    name: 'manager_job_duration_seconds',
    help: 'Run time of a job on this worker, by command and outcome.',
    labelNames: ['command', 'outcome'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [this.registry],
  });

  jobFinished(command: string, outcome: JobOutcome, seconds: number) {
    this.jobDuration.labels(command, outcome).observe(seconds);
  }

  /** Gauges read at scrape time; a source that fails (database down) leaves its gauge empty. */
  watch(sources: ManagerGaugeSources) {
    this.scrapedGauge(
      {
        name: 'manager_jobs',
        help: 'Jobs waiting (pending) and running, by command: the queue depth.',
        labelNames: ['command', 'status'],
      },
      async () =>
        (await sources.activeJobs()).map(({ command, status, count }) => ({
          labels: { command, status },
          value: count,
        })),
    );
    this.scrapedGauge(
      {
        name: 'manager_agent_last_checkin_age_seconds',
        help: 'Seconds since each site agent last checked in (absent: never).',
        labelNames: ['site_id', 'site', 'agent'],
      },
      async () =>
        (await sources.agents()).flatMap((agent) =>
          agent.secondsSinceCheckin === null
            ? []
            : [
                {
                  labels: {
                    site_id: String(agent.siteId),
                    site: agent.siteName ?? '',
                    agent: agent.hostname,
                  },
                  value: agent.secondsSinceCheckin,
                },
              ],
        ),
    );
    this.usageGauges(sources.usage);
    new Gauge({
      name: 'sse_connections',
      help: 'Server-sent event streams open in this process (job output).',
      registers: [this.registry],
      collect() {
        this.set(sources.sseConnections());
      },
    });
  }

  /**
   * One gauge per figure, a series per node and container (`subject`, `id`: as many as there are
   * nodes and containers, never a free-text label), from the latest sample of each.
   */
  private usageGauges(read: () => Promise<SubjectUsage[]>) {
    let last: { at: number; rows: Promise<SubjectUsage[]> } | undefined;
    const latest = () => {
      if (!last || Date.now() - last.at > USAGE_READ_MS) last = { at: Date.now(), rows: read() };
      return last.rows;
    };
    for (const [figure, [name, help]] of Object.entries(USAGE_GAUGES) as Array<
      [UsageFigure, readonly [string, string]]
    >) {
      this.scrapedGauge(
        { name, help: `${help}, by the latest sample.`, labelNames: ['subject', 'id'] },
        async () =>
          (await latest()).flatMap(({ subject, id, figures }) => {
            const value = figures[figure];
            return value === null || value === undefined
              ? []
              : [{ labels: { subject, id: String(id) }, value }];
          }),
      );
    }
  }
}
