/** Backups: query keys and reads. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';

export const backupKeys = { all: ['backups'] as const };

export const useBackups = () => useQuery({ queryKey: backupKeys.all, queryFn: () => api.get('/backups') });
