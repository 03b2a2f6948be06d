/** The signed-in user's notifications: their query keys, reads and acknowledgements. */
import { useQuery } from '@tanstack/react-query';
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

export const useAcknowledgeAll = (callbacks?: WriteCallbacks<{ acknowledged: number }, void>) =>
  useWrite(() => api.post('/notifications/all/ack'), [notificationKeys.all], callbacks);
