/** Resource requests: their query keys, reads, filing and review. */
import { useQuery } from '@tanstack/react-query';
import { api, type BodyOf } from './client.ts';
import type { ResourceRequest } from './types.ts';
import { useWrite, type WriteCallbacks } from './write.ts';

export const requestKeys = {
  all: ['resource-requests'] as const,
  list: (status: string) => ['resource-requests', status] as const,
  count: ['resource-requests', 'count'] as const,
};

/** Requests in this status ('' for every status). */
export const useResourceRequests = (status: ResourceRequest['status'] | '') =>
  useQuery({
    queryKey: requestKeys.list(status),
    queryFn: () => api.get('/resource-requests', { query: { status } }),
  });

/**
 * What a container of this hostname and owner is (or will be) given: the approved requests' values,
 * else the defaults. Only administrators may ask about another user's; `enabled` false asks nothing.
 */
export const useEffectiveResources = (siteId: number, hostname: string, username: string, enabled = true) =>
  useQuery({
    queryKey: [...requestKeys.all, 'effective', siteId, hostname, username],
    queryFn: () =>
      api.get('/resource-requests/effective/{siteId}/{hostname}/{username}', {
        path: { siteId, hostname, username },
      }),
    enabled: enabled && Boolean(hostname && username),
  });

/** Requests waiting for review, for the administrators' badge. */
export const usePendingRequestCount = (options: { enabled: boolean; refetchInterval: number | false }) =>
  useQuery({ queryKey: requestKeys.count, queryFn: () => api.get('/resource-requests/count'), ...options });

export const useFileRequest = (
  callbacks?: WriteCallbacks<ResourceRequest, BodyOf<'post', '/resource-requests'>>,
) =>
  useWrite(
    (body: BodyOf<'post', '/resource-requests'>) => api.post('/resource-requests', { body }),
    [requestKeys.all],
    callbacks,
  );

/** Approves or denies a request, with the administrator's comment. */
export const useReviewRequest = (
  request: ResourceRequest,
  action: 'approve' | 'deny',
  callbacks?: WriteCallbacks<unknown, { adminComment: string }>,
) =>
  useWrite(
    (body: { adminComment: string }) =>
      api.put(action === 'approve' ? '/resource-requests/{id}/approve' : '/resource-requests/{id}/deny', {
        path: { id: request.id },
        body,
      }),
    [requestKeys.all],
    callbacks,
  );
