import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, responses, RowId, SiteParams } from '../common/schemas.ts';
import { principalOf, requireAdmin, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import type { ConsumerSort, MetricsRange } from '../metrics/metrics-history.ts';
import { ConsumerSchema, MetricsHistorySchema, RangeQuery, TopQuery } from './schemas/metrics.ts';

const SubjectParams = Type.Object({ siteId: RowId(), id: RowId() });
const range = (query: { range?: string }) => (query.range ?? '24h') as MetricsRange;

/** Metrics history of nodes and containers, and a site's top consumers. */
export async function metricsHistoryRoutes(api: Api, services: Services) {
  const { metricsHistory, nodes, containers } = services;
  const tags = ['Metrics'];
  const historySchema = (summary: string) => ({
    tags,
    summary,
    params: SubjectParams,
    querystring: RangeQuery,
    response: responses({ 200: Data(MetricsHistorySchema) }),
  });

  api.get(
    '/sites/:siteId/nodes/:id/metrics',
    { onRequest: requireUser, schema: historySchema("A node's usage over a time range") },
    async (request) => {
      const node = await nodes.get(request.params.siteId, request.params.id);
      return { data: await metricsHistory.history('node', node.id, range(request.query)) };
    },
  );

  api.get(
    '/sites/:siteId/containers/:id/metrics',
    {
      schema: historySchema(
        "A container's usage over a time range (its owner, collaborators, administrators)",
      ),
    },
    async (request) => {
      const { siteId, id } = request.params;
      const record = await containers.record(principalOf(request), siteId, id, 'read');
      return { data: await metricsHistory.history('container', record.id, range(request.query)) };
    },
  );

  api.get(
    '/sites/:siteId/metrics/top',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: "The site's containers using the most, by their latest sample (administrators)",
        params: SiteParams,
        querystring: TopQuery,
        response: responses({ 200: Data(Type.Array(ConsumerSchema)) }),
      },
    },
    async (request) => {
      await services.sites.assertExists(request.params.siteId);
      const { sort = 'cpu', limit = 20 } = request.query;
      return { data: await metricsHistory.top(request.params.siteId, sort as ConsumerSort, limit) };
    },
  );
}
