/** The project and its languages: query keys and reads. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';

export const projectKeys = {
  project: ['project'] as const,
  languages: ['languages'] as const,
  availableLanguages: ['languages', 'available'] as const,
};

export const useProject = () => useQuery({ queryKey: projectKeys.project, queryFn: () => api.get('/project') });

export const useLanguages = () =>
  useQuery({ queryKey: projectKeys.languages, queryFn: () => api.get('/languages') });

/** The languages the service names, to pick from; they never change while it runs. */
export const useAvailableLanguages = () =>
  useQuery({
    queryKey: projectKeys.availableLanguages,
    queryFn: () => api.get('/languages/available'),
    staleTime: Infinity,
  });
