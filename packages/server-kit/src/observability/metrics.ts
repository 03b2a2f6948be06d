import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../crypto.ts';
import { forbidden, unauthorized } from '../errors.ts';

/** Seconds: from a cached answer (a millisecond) to a slow node call. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | undefined;
/** Memory, CPU, event-loop delay and GC: once per process, however many apps it builds (tests build many). */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Counts the lookups of one cache. */
export interface CacheRecorder {
  hit(): void;
  miss(): void;
}

/** One series of a gauge read at scrape time: its label values and its value. */
export interface GaugeSeries<L extends string> {
  labels: Record<L, string>;
  value: number;
}

/**
 * One service's metrics: the process metrics plus the service's own registry, which its domain code
 * fills (counters, histograms) or reads at scrape time (gauges with a `collect`).
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private cacheLookups: Counter<'cache' | 'result'> | undefined;

  /** The Prometheus text exposition of every metric. */
  async text(): Promise<string> {
    const [process, service] = await Promise.all([processMetrics().metrics(), this.registry.metrics()]);
    return `${process}\n${service}`;
  }

  /** Hit and miss counters of the named cache (`cache_requests_total{cache,result}`). */
  cache(name: string): CacheRecorder {
    this.cacheLookups ??= new Counter({
      name: 'cache_requests_total',
      help: 'Lookups in an in-process cache, by cache and result (hit or miss).',
      labelNames: ['cache', 'result'] as const,
      registers: [this.registry],
    });
    const hits = this.cacheLookups.labels(name, 'hit');
    const misses = this.cacheLookups.labels(name, 'miss');
    return { hit: () => hits.inc(), miss: () => misses.inc() };
  }

  /**
   * A gauge whose series `read` lists at scrape time; it is empty while `read` fails (the database out of
   * reach), so a scrape never fails with it.
   */
  protected scrapedGauge<L extends string>(
    gauge: { name: string; help: string; labelNames: readonly L[] },
    read: () => Promise<GaugeSeries<L>[]>,
  ) {
    new Gauge({
      ...gauge,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const series of await read().catch(() => [])) this.labels(series.labels).set(series.value);
      },
    });
  }

  /**
   * Counts and times every answer of `app` by method, route pattern (never the raw URL: its ids would
   * make a series per record) and status.
   */
  observeHttp(app: FastifyInstance) {
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
    // A child per label set, looked up by one string: labels() hashes its arguments on every call.
    const children = new Map<string, ReturnType<typeof duration.labels>>();
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const key = `${request.method} ${route} ${reply.statusCode}`;
      let child = children.get(key);
      if (!child) {
        child = duration.labels(request.method, route, String(reply.statusCode));
        children.set(key, child);
      }
      child.observe(reply.elapsedTime / 1000);
      done();
    });
  }
}

export interface MetricsAccess {
  /** `METRICS_TOKEN`: a scraper's `Authorization: Bearer …`. */
  token: string | undefined;
  /** Whether the caller is otherwise allowed (the manager: an administrator). */
  allowed?: (request: FastifyRequest) => boolean;
  /** Whether the caller has signed in at all (refusals then say 403, not 401). */
  signedIn?: (request: FastifyRequest) => boolean;
}

/** The route handler of `/metrics`: refuses callers who are neither the scraper nor allowed. */
export function metricsHandler(metrics: ServiceMetrics, access: MetricsAccess) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!access.allowed?.(request) && !hasMetricsToken(request, access.token)) {
      if (access.signedIn?.(request)) throw forbidden('Only administrators can read the metrics.');
      throw unauthorized('Send the metrics token (Authorization: Bearer …) or sign in as an administrator.');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.text());
  };
}

/** Whether the request carries `Authorization: Bearer <token>` for a configured token. */
export function hasMetricsToken(request: FastifyRequest, token: string | undefined): boolean {
  const header = request.headers.authorization;
  if (!token || !header?.toLowerCase().startsWith('bearer ')) return false;
  return safeEqual(header.slice(7).trim(), token);
}
