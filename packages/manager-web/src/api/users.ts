/** Users and groups: their query keys, reads and writes. */
import { useQuery } from '@tanstack/react-query';
import { api, type BodyOf } from './client.ts';
import { notificationKeys } from './notifications.ts';
import type { Group, User } from './types.ts';
import { useWrite, type WriteCallbacks } from './write.ts';

export const userKeys = {
  all: ['users'] as const,
  pendingCount: ['users', 'pending-count'] as const,
};
export const groupKeys = { all: ['groups'] as const };

/**
 * A user's groups list their members: a change of users is a change of groups too. Deciding on a waiting
 * account settles the administrators' notices about it (the server does): notifications are read again.
 */
const USERS_AND_GROUPS = [userKeys.all, groupKeys.all, notificationKeys.all];

/** Every user; `enabled` false for those who may not list them (non-administrators). */
export const useUsers = (enabled = true) =>
  useQuery({ queryKey: userKeys.all, queryFn: () => api.get('/users'), enabled });

export const useGroups = () => useQuery({ queryKey: groupKeys.all, queryFn: () => api.get('/groups') });

/** Users waiting for approval, for the administrators' badge. */
export const usePendingUserCount = (options: { enabled: boolean; refetchInterval: number | false }) =>
  useQuery({ queryKey: userKeys.pendingCount, queryFn: () => api.get('/users/pending/count'), ...options });

export type UserInput = BodyOf<'post', '/users'>;

/** Creates a user (`user` null) or changes one. */
export const useSaveUser = (user: User | null, callbacks?: WriteCallbacks<User, UserInput>) =>
  useWrite(
    (body: UserInput) =>
      user
        ? api.put('/users/{uidNumber}', { path: { uidNumber: user.uidNumber }, body })
        : api.post('/users', { body }),
    USERS_AND_GROUPS,
    callbacks,
  );

export const useSetUserStatus = (callbacks?: WriteCallbacks<User, { user: User; status: User['status'] }>) =>
  useWrite(
    ({ user, status }: { user: User; status: User['status'] }) =>
      api.put('/users/{uidNumber}', { path: { uidNumber: user.uidNumber }, body: { status } }),
    [userKeys.all, notificationKeys.all],
    callbacks,
  );

/** Deletes a user, giving their containers to `reassignTo` when named. */
export const useDeleteUser = (user: User, callbacks?: WriteCallbacks<unknown, string | null>) =>
  useWrite(
    (reassignTo: string | null) =>
      api.delete('/users/{uidNumber}', {
        path: { uidNumber: user.uidNumber },
        query: { reassignTo: reassignTo ?? undefined },
      }),
    USERS_AND_GROUPS,
    callbacks,
  );

export const useInviteUser = (
  callbacks?: WriteCallbacks<{ message: string; inviteUrl?: string }, { email: string }>,
) => useWrite((body: { email: string }) => api.post('/users/invite', { body }), [], callbacks);

export const useEmailAllUsers = (
  callbacks?: WriteCallbacks<{ sent: number; failed: number }, { subject: string; message: string }>,
) =>
  useWrite(
    (body: { subject: string; message: string }) => api.post('/users/email-all', { body }),
    [],
    callbacks,
  );

/** Creates a group (`group` null) or changes one. */
export const useSaveGroup = (
  group: Group | null,
  callbacks?: WriteCallbacks<unknown, { cn: string; isAdmin: boolean }>,
) =>
  useWrite(
    (body: { cn: string; isAdmin: boolean }) =>
      group
        ? api.put('/groups/{gidNumber}', { path: { gidNumber: group.gidNumber }, body })
        : api.post('/groups', { body }),
    [groupKeys.all],
    callbacks,
  );

export const useDeleteGroup = (callbacks?: WriteCallbacks<unknown, Group>) =>
  useWrite(
    (group: Group) => api.delete('/groups/{gidNumber}', { path: { gidNumber: group.gidNumber } }),
    [groupKeys.all],
    callbacks,
  );
