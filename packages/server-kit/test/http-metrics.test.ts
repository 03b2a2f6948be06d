import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { HttpMetrics, LATENCY_BUCKETS } from '../src/observability/http-metrics.ts';
import { ServiceMetrics } from '../src/index.ts';

/** Answers of several routes and statuses, with times on, between and beyond the bucket bounds. */
const ANSWERS: [string, string, number, number][] = [
  ['GET', '/api/v1/health', 200, 0.0004],
  ['GET', '/api/v1/health', 200, 0.001],
  ['GET', '/api/v1/health', 200, 0.0011],
  ['GET', '/api/v1/jobs/:id', 404, 0.3],
  ['POST', '/api/v1/sites', 201, 12],
  ['GET', 'unmatched', 404, 10],
  ['GET', '/api/v1/health', 503, 0.05],
];

describe('HTTP metrics', () => {
  it('expose exactly what a prom-client histogram with the same observations does', async () => {
    const ours = new Registry();
    const metrics = new HttpMetrics(ours);
    const reference = new Registry();
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [reference],
    });
    for (const [method, route, status, seconds] of ANSWERS) {
      metrics.record(method, route, status, seconds);
      histogram.observe({ method, route, status: String(status) }, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await reference.metrics());
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.001",method="GET",route="/api/v1/health",status="200"} 2',
    );
  });

  it('count cache lookups per cache, shared by recorders of the same name', async () => {
    const metrics = new ServiceMetrics();
    const keys = metrics.cache('api_keys');
    const again = metrics.cache('api_keys');
    metrics.cache('idle');
    keys.hit();
    again.hit();
    keys.miss();
    const text = await metrics.registry.metrics();
    expect(text).toContain('cache_requests_total{cache="api_keys",result="hit"} 2');
    expect(text).toContain('cache_requests_total{cache="api_keys",result="miss"} 1');
    expect(text).not.toContain('cache="idle"');
  });
});
