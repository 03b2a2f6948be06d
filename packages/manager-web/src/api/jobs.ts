/** Jobs: their query keys, reads and cancel. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';

export const jobKeys = { detail: (id: number) => ['jobs', id] as const };

export const useJob = (id: number) =>
  useQuery({ queryKey: jobKeys.detail(id), queryFn: () => api.get('/jobs/{id}', { path: { id } }) });

/** A callback that reads the job again (its status once its log ends). */
export function useInvalidateJob(id: number) {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: jobKeys.detail(id) });
}

export function useCancelJob(id: number) {
  const invalidate = useInvalidateJob(id);
  return useMutation({
    mutationFn: () => api.post('/jobs/{id}/cancel', { path: { id } }),
    onSuccess: invalidate,
  });
}
