/** AI translation jobs: query keys and reads. */
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { readEventStream } from '@app/web-kit';
import { api, authHeaders } from '../api.ts';

export const aiJobKeys = {
  all: ['jobs'] as const,
  one: (id: string) => ['jobs', 'one', id] as const,
  active: ['jobs', 'active'] as const,
  log: ['jobs', 'log'] as const,
};

/** The statuses of a job that has not ended. */
export const ACTIVE_JOB_STATUSES = new Set(['pending', 'running']);

/**
 * One job, read again whenever its event stream reports progress or its end (pushed by the server after
 * every batch). Read every two seconds only while the stream is not open (refused: too many streams).
 */
export function useAiJob(id: string) {
  const queryClient = useQueryClient();
  const [streaming, setStreaming] = useState(true);
  useEffect(() => {
    const stop = new AbortController();
    setStreaming(true);
    readEventStream(
      `/api/ai-jobs/${encodeURIComponent(id)}/events`,
      { headers: authHeaders(), signal: stop.signal },
      () => void queryClient.invalidateQueries({ queryKey: aiJobKeys.one(id) }),
    )
      .catch(() => undefined)
      .finally(() => {
        if (!stop.signal.aborted) setStreaming(false);
      });
    return () => stop.abort();
  }, [id, queryClient]);
  return useQuery({
    queryKey: aiJobKeys.one(id),
    queryFn: () => api.get('/ai-jobs/{jobId}', { path: { jobId: id } }),
    refetchInterval: (q) =>
      streaming || (q.state.data && !ACTIVE_JOB_STATUSES.has(q.state.data.status)) ? false : 2000,
  });
}

export const useActiveAiJobs = () =>
  useQuery({ queryKey: aiJobKeys.active, queryFn: () => api.get('/ai-jobs'), refetchInterval: 3000 });

export const useAiJobLog = () => useQuery({ queryKey: aiJobKeys.log, queryFn: () => api.get('/ai-jobs/log') });
