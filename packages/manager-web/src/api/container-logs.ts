/** A container's logs: the read, its query key, the download address, and following over SSE. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, API_BASE, type ResponseOf } from './client.ts';
import { containerKeys } from './containers.ts';

export type LogLine = ResponseOf<'get', '/sites/{siteId}/containers/{id}/logs'>['lines'][number];
export type LogStreamChoice = 'both' | 'stdout' | 'stderr';

export interface LogFilter {
  stream: LogStreamChoice;
  /** ISO 8601, or absent. */
  since?: string | undefined;
  until?: string | undefined;
}

/** Lines shown while following: older ones are dropped past this. */
export const MAX_FOLLOWED_LINES = 2000;
const TAIL = 500;
const RETRY_MS = 2000;

const queryOf = (filter: LogFilter) => ({
  stream: filter.stream,
  ...(filter.since ? { since: filter.since } : {}),
  ...(filter.until ? { until: filter.until } : {}),
});

const searchOf = (query: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString();

/** The last lines of the window (not following). */
export const useContainerLogs = (siteId: number, id: number, filter: LogFilter, enabled: boolean) =>
  useQuery({
    queryKey: [...containerKeys.detail(siteId, id), 'logs', filter] as const,
    queryFn: () =>
      api.get('/sites/{siteId}/containers/{id}/logs', {
        path: { siteId, id },
        query: { ...queryOf(filter), tail: TAIL },
      }),
    enabled,
  });

/** Where the browser downloads the window's lines as a text file. */
export const logsDownloadUrl = (siteId: number, id: number, filter: LogFilter) =>
  `${API_BASE}/sites/${siteId}/containers/${id}/logs/download?${searchOf(queryOf(filter))}`;

export type FollowState = 'connecting' | 'live' | 'ended' | 'reconnecting';

/**
 * Follows the log while `enabled`: the last lines, then each new one pushed by the server. A dropped
 * stream is opened again from the last line's time (that line is not shown twice).
 */
export function useFollowedLogs(siteId: number, id: number, filter: LogFilter, enabled: boolean) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [state, setState] = useState<FollowState>('connecting');
  const [problem, setProblem] = useState<string | null>(null);
  const { stream, since } = filter;

  useEffect(() => {
    if (!enabled) return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last: LogLine | undefined;
    let stopped = false;
    setLines([]);
    setState('connecting');
    setProblem(null);

    const open = () => {
      const query = last
        ? { stream, since: last.time }
        : { ...queryOf({ stream, since }), ...(since ? {} : { tail: TAIL }) };
      source = new EventSource(`${API_BASE}/sites/${siteId}/containers/${id}/logs/stream?${searchOf(query)}`);
      source.onopen = () => setState('live');
      source.addEventListener('line', (event) => {
        const line = JSON.parse((event as MessageEvent<string>).data) as LogLine;
        if (last && (line.time < last.time || (line.time === last.time && line.text === last.text))) return;
        last = line;
        setLines((current) => [...current, line].slice(-MAX_FOLLOWED_LINES));
      });
      const end = (message: string | null) => {
        stopped = true;
        source?.close();
        setState('ended');
        setProblem(message);
      };
      source.addEventListener('end', () => end(null));
      source.addEventListener('failure', (event) =>
        end((JSON.parse((event as MessageEvent<string>).data) as { message: string }).message),
      );
      source.onerror = () => {
        if (stopped) return;
        source?.close();
        setState('reconnecting');
        timer = setTimeout(open, RETRY_MS);
      };
    };
    open();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(timer);
    };
  }, [siteId, id, stream, since, enabled]);

  return { lines, state, problem };
}
