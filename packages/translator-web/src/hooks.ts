import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';

export function useProject() {
  return useQuery({ queryKey: ['project'], queryFn: () => api.get('/project') });
}

export function useLanguages() {
  return useQuery({ queryKey: ['languages'], queryFn: () => api.get('/languages') });
}
