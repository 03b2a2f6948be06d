import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { projectOf, setUnauthorizedHandler, storedKey, storeKey, type Project } from './api.ts';

interface Auth {
  apiKey: string | null;
  /** Checks the key against the server, then keeps it for this tab. Throws ApiError when it is wrong. */
  signIn(key: string): Promise<Project>;
  signOut(): void;
  /** Replaces the key after a regeneration. */
  switchKey(key: string): void;
}

const AuthContext = createContext<Auth | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [apiKey, setApiKey] = useState<string | null>(() => storedKey());
  const queryClient = useQueryClient();

  const signOut = useCallback(() => {
    storeKey(null);
    setApiKey(null);
    queryClient.clear();
  }, [queryClient]);

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

  useEffect(() => {
    setUnauthorizedHandler(() => {
      notifications.show({
        color: 'red',
        title: 'Signed out',
        message: 'The API key is no longer valid (it may have been regenerated). Sign in with the new key.',
      });
      signOut();
    });
    return () => setUnauthorizedHandler(null);
  }, [signOut]);

  const value = useMemo(() => ({ apiKey, signIn, signOut, switchKey }), [apiKey, signIn, signOut, switchKey]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}
