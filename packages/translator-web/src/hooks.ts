import { useQuery } from '@tanstack/react-query';
import { api, type Language, type Project } from './api.ts';

export function useProject() {
  return useQuery({ queryKey: ['project'], queryFn: () => api.get<Project>('/api/project') });
}

export function useLanguages() {
  return useQuery({ queryKey: ['languages'], queryFn: () => api.get<Language[]>('/api/languages') });
}
