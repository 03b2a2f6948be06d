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
}

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
    new Gauge({
      name: 'sse_connections',
      help: 'Server-sent event streams open in this process (job output).',
      registers: [this.registry],
      collect() {
        this.set(sources.sseConnections());
      },
    });
  }
}
