/** Metrics history of nodes and containers, and a site's top consumers: query keys and reads. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type ResponseOf } from './client.ts';

export type MetricsHistory = ResponseOf<'get', '/sites/{siteId}/nodes/{id}/metrics'>;
export type MetricPoint = MetricsHistory['points'][number];
export type MetricsRange = '1h' | '24h' | '7d' | '60d';
export type MetricsSubject = 'node' | 'container';
export type Consumer = ResponseOf<'get', '/sites/{siteId}/metrics/top'>[number];
export type ConsumerSort = 'cpu' | 'memory' | 'disk' | 'network' | 'lastAccess';

export const METRICS_RANGES: MetricsRange[] = ['1h', '24h', '7d', '60d'];
/** New samples arrive about once a minute; the graph reads again at that pace. */
const REFRESH_MS = 60_000;

export const metricsKeys = {
  all: ['metrics'] as const,
  history: (siteId: number, subject: MetricsSubject, id: number, range: MetricsRange) =>
    ['metrics', siteId, subject, id, range] as const,
  top: (siteId: number, sort: ConsumerSort, limit: number) =>
    ['metrics', siteId, 'top', sort, limit] as const,
};

/** A node's or container's usage over `range`, oldest first; the previous range stays shown while the next loads. */
export const useMetricsHistory = (siteId: number, subject: MetricsSubject, id: number, range: MetricsRange) =>
  useQuery({
    queryKey: metricsKeys.history(siteId, subject, id, range),
    queryFn: () => {
      const options = { path: { siteId, id }, query: { range } };
      return subject === 'node'
        ? api.get('/sites/{siteId}/nodes/{id}/metrics', options)
        : api.get('/sites/{siteId}/containers/{id}/metrics', options);
    },
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });

/** The site's containers using the most of `sort`, by their latest sample (administrators). */
export const useTopConsumers = (siteId: number, sort: ConsumerSort, limit: number) =>
  useQuery({
    queryKey: metricsKeys.top(siteId, sort, limit),
    queryFn: () => api.get('/sites/{siteId}/metrics/top', { path: { siteId }, query: { sort, limit } }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
