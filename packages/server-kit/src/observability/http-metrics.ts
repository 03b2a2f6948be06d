import type { Metric, Registry } from 'prom-client';

/** Seconds: from a cached answer (a millisecond) to a slow node call. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const NAME = 'http_request_duration_seconds';

type Labels = { method: string; route: string; status: string };

/** One line of the exposition, as prom-client's Histogram hands it to its registry. */
type Sample = { metricName: string; labels: Partial<Labels> & { le?: number | string }; value: number };

interface Series {
  labels: Labels;
  /** Observations per bucket, not cumulative (the last slot is above every bound). */
  counts: number[];
  sum: number;
}

/**
 * `http_request_duration_seconds{method,route,status}`, kept as plain counters per series and handed to
 * prom-client only when scraped: prom-client's own `observe` hashes the label set on every call, which
 * on the busiest routes costs more than answering them. The exposition is what a prom-client
 * histogram with the same buckets writes.
 */
export class HttpMetrics {
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry) {
    const exported = {
      name: NAME,
      help: 'Time to answer an HTTP request, by method, route pattern and status.',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({ ...exported, values: this.values() }),
    };
    // A prom-client metric is whatever has a name and a get(); a Histogram subclass would still hash.
    registry.registerMetric(exported as unknown as Metric);
  }

  /** One answer: its method, route pattern (never the raw URL), status and time in seconds. */
  record(method: string, route: string, status: number, seconds: number) {
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        counts: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0),
        sum: 0,
      };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    series.counts[bucket]! += 1;
    series.sum += seconds;
  }

  private values(): Sample[] {
    const values: Sample[] = [];
    for (const { labels, counts, sum } of this.series.values()) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, bucket) => {
        cumulative += counts[bucket]!;
        values.push({ metricName: `${NAME}_bucket`, labels: { le, ...labels }, value: cumulative });
      });
      const count = cumulative + counts[LATENCY_BUCKETS.length]!;
      values.push(
        { metricName: `${NAME}_bucket`, labels: { le: '+Inf', ...labels }, value: count },
        { metricName: `${NAME}_sum`, labels, value: sum },
        { metricName: `${NAME}_count`, labels, value: count },
      );
    }
    return values;
  }
}
