import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../crypto.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { HttpMetrics } from './http-metrics.ts';

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
  /** Every answer by method, route pattern and status (see HttpMetrics). */
  readonly http = new HttpMetrics(this.registry);
  /** Hits and misses per cache, counted as plain numbers and read at scrape time. */
  private readonly cacheLookups = new Map<string, { hit: number; miss: number }>();

  /** The Prometheus text exposition of every metric. */
  async text(): Promise<string> {
    const [process, service] = await Promise.all([processMetrics().metrics(), this.registry.metrics()]);
    return `${process}\n${service}`;
  }

  /** Hit and miss counters of the named cache (`cache_requests_total{cache,result}`). */
  cache(name: string): CacheRecorder {
    if (this.cacheLookups.size === 0) {
      const lookups = this.cacheLookups;
      new Counter({
        name: 'cache_requests_total',
        help: 'Lookups in an in-process cache, by cache and result (hit or miss).',
        labelNames: ['cache', 'result'] as const,
        registers: [this.registry],
        collect() {
          this.reset();
          for (const [cache, counts] of lookups) {
            if (counts.hit) this.inc({ cache, result: 'hit' }, counts.hit);
            if (counts.miss) this.inc({ cache, result: 'miss' }, counts.miss);
          }
        },
      });
    }
    const counts = this.cacheLookups.get(name) ?? { hit: 0, miss: 0 };
    this.cacheLookups.set(name, counts);
    return {
      hit: () => void counts.hit++,
      miss: () => void counts.miss++,
    };
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
