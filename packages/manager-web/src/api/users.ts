/** Users and groups: their query keys and reads. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';

export const userKeys = {
  all: ['users'] as const,
  pendingCount: ['users', 'pending-count'] as const,
};
export const groupKeys = { all: ['groups'] as const };

/** Every user; `enabled` false for those who may not list them (non-administrators). */
export const useUsers = (enabled = true) =>
  useQuery({ queryKey: userKeys.all, queryFn: () => api.get('/users'), enabled });

export const useGroups = () => useQuery({ queryKey: groupKeys.all, queryFn: () => api.get('/groups') });

/** A callback that marks users (and groups, whose members they are) stale. */
export function useInvalidateUsers() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: userKeys.all });
    void client.invalidateQueries({ queryKey: groupKeys.all });
  };
}
