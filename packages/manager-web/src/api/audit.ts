/** The audit log (administrators) and the signed-in user's own activity, read a page at a time. */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { InitOf } from '@app/web-kit';
import { api, API_BASE, type ResponseOf } from './client.ts';
import type { paths } from './openapi.ts';

export type AuditPage = ResponseOf<'get', '/audit-events'>;
export type AuditEvent = AuditPage['events'][number];

/** The audit log's filters, as its query and the page's address name them. */
export type AuditFilters = Omit<
  NonNullable<InitOf<paths, 'get', '/audit-events'>['query']>,
  'cursor' | 'limit'
>;

export const auditKeys = {
  all: ['audit'] as const,
  list: (filters: AuditFilters) => ['audit', 'list', filters] as const,
  mine: ['audit', 'mine'] as const,
};

const PAGE_SIZE = 100;
const pages = {
  initialPageParam: undefined as number | undefined,
  getNextPageParam: (last: AuditPage) => last.nextCursor ?? undefined,
};

export const useAuditEvents = (filters: AuditFilters) =>
  useInfiniteQuery({
    queryKey: auditKeys.list(filters),
    queryFn: ({ pageParam }) =>
      api.get('/audit-events', { query: { ...filters, limit: PAGE_SIZE, cursor: pageParam } }),
    ...pages,
    // A filter change keeps the entries on screen until the filtered ones arrive, instead of a spinner.
    placeholderData: keepPreviousData,
  });

export const useMyActivity = () =>
  useInfiniteQuery({
    queryKey: auditKeys.mine,
    queryFn: ({ pageParam }) =>
      api.get('/users/me/activity', { query: { limit: PAGE_SIZE, cursor: pageParam } }),
    ...pages,
  });

/** The CSV export of the entries `filters` match (a download link: the browser sends the session cookie). */
export function auditCsvUrl(filters: AuditFilters): string {
  const query = new URLSearchParams(
    Object.entries(filters).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])),
  );
  return `${API_BASE}/audit-events.csv${query.size ? `?${query}` : ''}`;
}
