import { Type } from 'typebox';
import { metricsHandler } from '@app/server-kit';
import type { Api } from '../common/api.ts';
import { ErrorEnvelope } from '../common/schemas.ts';
import type { Services } from '../services.ts';

export async function metricsRoutes(api: Api, services: Services) {
  const { config, metrics } = services.ctx;
  api.get(
    '/metrics',
    {
      config: { metricsToken: true },
      schema: {
        tags: ['Meta'],
        summary:
          'Prometheus metrics (text format): administrators, or a scraper sending Authorization: Bearer $METRICS_TOKEN',
        response: {
          200: { description: 'The metrics', content: { 'text/plain': { schema: Type.String() } } },
          '4xx': ErrorEnvelope,
          '5xx': ErrorEnvelope,
        },
      },
    },
    metricsHandler(metrics, {
      token: config.metricsToken,
      allowed: (request) => request.principal?.isAdmin === true,
      signedIn: (request) => request.principal !== null,
    }),
  );
}
