import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  accounts,
  projectOf,
  setSessionHeaders,
  setUnauthorizedHandler,
  storedKey,
  storeKey,
  type Membership,
  type Project,
  type Session,
} from './api.ts';

/** What a route asks of its caller; the server says what each membership's role grants. */
export type Access = Membership['access'][number];

interface Auth {
  /** False until the dashboard knows whether this browser is signed in. */
  ready: boolean;
  apiKey: string | null;
  session: Session | null;
  /** The project a signed-in account works on now (none when it belongs to no project). */
  membership: Membership | null;
  /** Whether the caller may do what `access` needs (a key may do everything). */
  can(access: Access): boolean;
  /** Checks the key against the server, then keeps it for this tab. Throws ApiError when it is wrong. */
  signIn(key: string): Promise<Project>;
  /** Adopts the session a sign-in or an accepted invitation started, on `projectId` when given. */
  adopt(session: Session, projectId?: number): void;
  signOut(): void;
  /** Replaces the key after a regeneration. */
  switchKey(key: string): void;
  switchProject(id: number): void;
}

const AuthContext = createContext<Auth | null>(null);
const PROJECT_STORAGE = 'translator.project';

function rememberedProject(): number | null {
  try {
    return Number(localStorage.getItem(PROJECT_STORAGE)) || null;
  } catch {
    return null;
  }
}

/** Whether an account has signed in to the dashboard in this browser (it remembered a project). */
export const usedAnAccountHere = () => rememberedProject() !== null;

function rememberProject(id: number) {
  try {
    localStorage.setItem(PROJECT_STORAGE, String(id));
  } catch {
    // storage disabled: the choice lasts for this page
  }
}

/** The project to open: the one asked for, else the one used last, else the first. */
function choose(session: Session, wanted: number | null): Membership | null {
  const { projects } = session;
  return (
    projects.find((p) => p.id === wanted) ??
    projects.find((p) => p.id === rememberedProject()) ??
    projects[0] ??
    null
  );
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [apiKey, setApiKey] = useState<string | null>(() => storedKey());
  const [session, setSession] = useState<Session | null>(null);
  const [projectId, setProjectId] = useState<number | null>(null);
  const [ready, setReady] = useState(() => storedKey() !== null);
  const queryClient = useQueryClient();

  const adopt = useCallback(
    (next: Session, wanted?: number) => {
      const membership = choose(next, wanted ?? null);
      setSessionHeaders(membership ? { projectId: membership.id, csrfToken: next.csrfToken } : null);
      if (membership) rememberProject(membership.id);
      queryClient.clear();
      setSession(next);
      setProjectId(membership?.id ?? null);
      setReady(true);
    },
    [queryClient],
  );

  useEffect(() => {
    if (storedKey()) return;
    accounts.session().then(
      (found) => (found ? adopt(found) : setReady(true)),
      () => setReady(true),
    );
  }, [adopt]);

  const signOut = useCallback(() => {
    if (session) {
      void accounts.logout().then(
        ({ logoutUrl }) => logoutUrl && window.location.assign(logoutUrl),
        () => undefined,
      );
    }
    storeKey(null);
    setSessionHeaders(null);
    setApiKey(null);
    setSession(null);
    setProjectId(null);
    queryClient.clear();
  }, [queryClient, session]);

  const signIn = useCallback(
    async (key: string) => {
      const project = await projectOf(key.trim());
      queryClient.clear();
      storeKey(key.trim());
      setApiKey(key.trim());
      return project;
    },
    [queryClient],
  );

  const switchKey = useCallback((key: string) => {
    storeKey(key);
    setApiKey(key);
  }, []);

  const switchProject = useCallback(
    (id: number) => {
      if (session) adopt(session, id);
    },
    [adopt, session],
  );

  useEffect(() => {
    setUnauthorizedHandler(() => {
      notifications.show({
        color: 'red',
        title: 'Signed out',
        message: storedKey()
          ? 'The API key is no longer valid (it may have been regenerated). Sign in with the new key.'
          : 'Your session has expired: sign in again.',
      });
      signOut();
    });
    return () => setUnauthorizedHandler(null);
  }, [signOut]);

  const membership = session?.projects.find((p) => p.id === projectId) ?? null;
  const can = useCallback(
    (access: Access) => Boolean(apiKey) || (membership?.access.includes(access) ?? false),
    [apiKey, membership],
  );

  const value = useMemo(
    () => ({ ready, apiKey, session, membership, can, signIn, adopt, signOut, switchKey, switchProject }),
    [ready, apiKey, session, membership, can, signIn, adopt, signOut, switchKey, switchProject],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}
