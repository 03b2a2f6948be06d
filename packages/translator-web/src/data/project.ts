/** The project and its languages: query keys and reads. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';

export const projectKeys = { project: ['project'] as const, languages: ['languages'] as const };

export const useProject = () => useQuery({ queryKey: projectKeys.project, queryFn: () => api.get('/project') });

export const useLanguages = () =>
  useQuery({ queryKey: projectKeys.languages, queryFn: () => api.get('/languages') });
