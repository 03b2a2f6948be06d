/** The manager's settings (administrators only). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BodyOf } from './client.ts';
import { sessionKeys } from './session.ts';
import type { Settings } from './types.ts';
import { useWrite, type WriteCallbacks } from './write.ts';

export const settingsKeys = { all: ['settings'] as const };

export const useSettings = (enabled = true) =>
  useQuery({ queryKey: settingsKeys.all, queryFn: () => api.get('/settings'), enabled });

/** Saves the settings; the banner they hold is read with the health answer, so that is read again too. */
export function useSaveSettings(callbacks?: WriteCallbacks<Settings, BodyOf<'put', '/settings'>>) {
  const client = useQueryClient();
  return useWrite(
    (body: BodyOf<'put', '/settings'>) => api.put('/settings', { body }),
    [sessionKeys.health],
    {
      ...callbacks,
      onSuccess: (saved, ...rest) => {
        client.setQueryData(settingsKeys.all, saved);
        return callbacks?.onSuccess?.(saved, ...rest);
      },
    },
  );
}
