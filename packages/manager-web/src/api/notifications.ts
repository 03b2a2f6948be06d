/** The signed-in user's notifications: their query keys, reads and acknowledgements. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import { useWrite, type WriteCallbacks } from './write.ts';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
  badge: ['notifications', 'badge'] as const,
};

/** The first 100 notifications (unacknowledged first), as the page and the badge read them. */
const firstHundred = () => api.get('/notifications', { query: { limit: 100 } });

export const useNotifications = () => useQuery({ queryKey: notificationKeys.list, queryFn: firstHundred });

export const useNotificationBadge = (enabled: boolean) =>
  useQuery({
    queryKey: notificationKeys.badge,
    queryFn: firstHundred,
    enabled,
    refetchInterval: (q) => (q.state.status === 'error' ? false : 60_000),
  });

export const useAcknowledge = (callbacks?: WriteCallbacks<unknown, number>) =>
  useWrite(
    (id: number) => api.post('/notifications/{id}/ack', { path: { id } }),
    [notificationKeys.all],
    callbacks,
  );

/**
 * Acknowledges the caller's "waits for approval" notices about an account once they approved it: the
 * notice has done its job, and left unread it would keep asking for an approval already given.
 */
export function useSettleApprovalNotices() {
  const client = useQueryClient();
  return async (uidNumber: number) => {
    const list = await client.fetchQuery({ queryKey: notificationKeys.list, queryFn: firstHundred });
    const settled = list.filter(
      (n) =>
        n.source === 'manager' &&
        n.action === 'user.pending' &&
        !n.acknowledgedAt &&
        n.evidence?.uidNumber === uidNumber,
    );
    await Promise.all(settled.map((n) => api.post('/notifications/{id}/ack', { path: { id: n.id } })));
    if (settled.length) await client.invalidateQueries({ queryKey: notificationKeys.all });
  };
}

export const useAcknowledgeAll = (callbacks?: WriteCallbacks<{ acknowledged: number }, void>) =>
  useWrite(() => api.post('/notifications/all/ack'), [notificationKeys.all], callbacks);
