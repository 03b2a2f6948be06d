/** AI translation jobs: query keys and reads. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';

export const aiJobKeys = {
  all: ['jobs'] as const,
  one: (id: string) => ['jobs', 'one', id] as const,
  active: ['jobs', 'active'] as const,
  log: ['jobs', 'log'] as const,
};

/** The statuses of a job that has not ended. */
export const ACTIVE_JOB_STATUSES = new Set(['pending', 'running']);

/** One job, read every second until it ends. */
export const useAiJob = (id: string) =>
  useQuery({
    queryKey: aiJobKeys.one(id),
    queryFn: () => api.get('/ai-jobs/{jobId}', { path: { jobId: id } }),
    refetchInterval: (q) => (q.state.data && !ACTIVE_JOB_STATUSES.has(q.state.data.status) ? false : 1000),
  });

export const useActiveAiJobs = () =>
  useQuery({ queryKey: aiJobKeys.active, queryFn: () => api.get('/ai-jobs'), refetchInterval: 3000 });

export const useAiJobLog = () => useQuery({ queryKey: aiJobKeys.log, queryFn: () => api.get('/ai-jobs/log') });
