import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, resetCsrf } from './client.ts';
import type { Session } from './types.ts';

export const sessionKeys = { health: ['health'] as const, session: ['session'] as const };

export function useHealth() {
  return useQuery({
    queryKey: sessionKeys.health,
    queryFn: () => api.get('/health'),
    staleTime: 60_000,
  });
}

/** The signed-in user, or null when there is no session. */
export function useSession() {
  return useQuery({
    queryKey: sessionKeys.session,
    queryFn: async (): Promise<Session | null> => {
      try {
        return await api.get('/session');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

/** After a sign-in or sign-out: new CSRF token, fresh session, no cached data of the previous user. */
export function useSessionChanged() {
  const client = useQueryClient();
  return async (session: Session | null) => {
    resetCsrf();
    client.removeQueries({
      predicate: (query) => !['session', 'health'].includes(String(query.queryKey[0])),
    });
    client.setQueryData(sessionKeys.session, session);
  };
}
