/** The signed-out pages' reads: an invitation and a password reset link, each checked once. */
import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

export const authKeys = {
  invitation: (token: string | null) => ['invite', token] as const,
  reset: (token: string) => ['reset', token] as const,
};

/** The invitation a registration link carries (none without a token). */
export const useInvitation = (token: string | null) =>
  useQuery({
    queryKey: authKeys.invitation(token),
    queryFn: () => api.get('/auth/register/invite/{token}', { path: { token: token! } }),
    enabled: Boolean(token),
    retry: false,
  });

export const usePasswordReset = (token: string) =>
  useQuery({
    queryKey: authKeys.reset(token),
    queryFn: () => api.get('/auth/password-reset/{token}', { path: { token } }),
    retry: false,
  });
