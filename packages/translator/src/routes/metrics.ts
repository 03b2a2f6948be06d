import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorEnvelope, metricsHandler } from '@app/server-kit';
import type { TranslatorMetrics } from '../observability/metrics.ts';
import { errorsOf } from '../errors/catalogue.ts';

/**
 * `GET /api/metrics` for a scraper sending `Authorization: Bearer $METRICS_TOKEN`: the metrics span
 * every project, so no project key opens them. Registered outside the project-key hook.
 */
export function metricsRoutes(app: FastifyInstance, metrics: TranslatorMetrics, token: string | undefined) {
  app.get(
    '/api/metrics',
    {
      config: { errors: errorsOf('unauthorized') },
      schema: {
        tags: ['Meta'],
        summary:
          'Prometheus metrics (text format), for a scraper sending Authorization: Bearer $METRICS_TOKEN',
        security: [{ metricsToken: [] }],
        response: {
          200: { description: 'The metrics', content: { 'text/plain': { schema: Type.String() } } },
          '4xx': ErrorEnvelope,
          '5xx': ErrorEnvelope,
        },
      },
    },
    metricsHandler(metrics, { token }),
  );
}
