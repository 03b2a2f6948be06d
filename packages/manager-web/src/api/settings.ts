/** The manager's settings (administrators only). */
import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

export const settingsKeys = { all: ['settings'] as const };

export const useSettings = (enabled = true) =>
  useQuery({ queryKey: settingsKeys.all, queryFn: () => api.get('/settings'), enabled });
