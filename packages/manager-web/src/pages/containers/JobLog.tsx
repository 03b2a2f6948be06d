import { Badge, Group, Paper, ScrollArea, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { api, API_BASE, ApiError } from '../../api/client.ts';
import type { JobStatus } from '../../api/types.ts';
import { StatusBadge } from '../../components/common.tsx';

interface Line {
  id: number;
  output: string;
}

type Connection = 'connecting' | 'live' | 'reconnecting' | 'done' | 'error';

const FINISHED: JobStatus[] = ['success', 'failure', 'cancelled'];

/**
 * A job's output, live over server-sent events. A dropped stream is reopened with `?lastId=` set to
 * the last line shown, so no line is lost or shown twice; a refused one is checked against the job.
 */
export function JobLog({ jobId, onFinished }: { jobId: number; onFinished?: (status: JobStatus) => void }) {
  const [lines, setLines] = useState<Line[]>([]);
  const [status, setStatus] = useState<JobStatus | null>(null);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [problem, setProblem] = useState<string | null>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const finished = useRef(onFinished);
  finished.current = onFinished;

  useEffect(() => {
    let lastId = 0;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    setLines([]);
    setStatus(null);
    setProblem(null);

    let failures = 0;
    const retry = () => {
      failures += 1;
      timer = setTimeout(open, Math.min(1000 * 2 ** (failures - 1), 10_000));
    };

    const open = () => {
      let opened = false;
      source = new EventSource(`${API_BASE}/jobs/${jobId}/stream${lastId ? `?lastId=${lastId}` : ''}`);
      source.onopen = () => {
        opened = true;
        failures = 0;
        setConnection('live');
      };
      source.addEventListener('log', (event) => {
        const row = JSON.parse((event as MessageEvent<string>).data) as Line;
        if (row.id <= lastId) return;
        lastId = row.id;
        setLines((current) => [...current, { id: row.id, output: row.output }]);
      });
      source.addEventListener('status', (event) => {
        const data = JSON.parse((event as MessageEvent<string>).data) as { status: JobStatus };
        stopped = true;
        source?.close();
        setStatus(data.status);
        setConnection('done');
        finished.current?.(data.status);
      });
      source.onerror = () => {
        if (stopped) return;
        // Reconnect ourselves, from the last line shown (the browser's own retry would start over
        // wherever its Last-Event-ID got lost, e.g. behind a proxy).
        source?.close();
        setConnection('reconnecting');
        if (opened) {
          retry();
          return;
        }
        // The stream was refused: find out why before trying again.
        api
          .get('/jobs/{id}', { path: { id: jobId } })
          .then((job) => {
            if (stopped) return;
            if (FINISHED.includes(job.status) && lastId > 0) {
              setStatus(job.status);
              setConnection('done');
              finished.current?.(job.status);
              return;
            }
            retry();
          })
          .catch((error: unknown) => {
            if (stopped) return;
            if (error instanceof ApiError && error.status !== 0) {
              setConnection('error');
              setProblem(
                error.missingEndpoint ? 'Job logs are not available on this server yet.' : error.message,
              );
            } else retry();
          });
      };
    };
    open();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(timer);
    };
  }, [jobId]);

  useEffect(() => {
    const element = viewport.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [lines.length]);

  return (
    <Paper withBorder p="sm" data-testid="job-log" data-status={status ?? connection}>
      <Group justify="space-between" mb="xs">
        <Text fw={600} size="sm">
          Job #{jobId}
        </Text>
        {status ? (
          <StatusBadge status={status} />
        ) : (
          <Badge
            variant="dot"
            color={connection === 'live' ? 'green' : connection === 'error' ? 'red' : 'yellow'}
          >
            {connection === 'live' ? 'live' : connection}
          </Badge>
        )}
      </Group>
      {problem ? (
        <Text c="red" size="sm">
          {problem}
        </Text>
      ) : null}
      <ScrollArea.Autosize mah={360} viewportRef={viewport} type="auto">
        <pre
          style={{
            margin: 0,
            fontSize: 12,
            lineHeight: 1.45,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
            fontFamily: 'var(--mantine-font-family-monospace)',
          }}
          aria-live="polite"
        >
          {lines.length === 0 && !problem
            ? 'Waiting for output…'
            : lines.map((line) => line.output).join('\n')}
        </pre>
      </ScrollArea.Autosize>
    </Paper>
  );
}
