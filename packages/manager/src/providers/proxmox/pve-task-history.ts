import type { LogLine, LogOptions } from '../types.ts';
import type { PveClient } from './pve-client.ts';
import { MAX_TASK_LOG_LINES, MAX_TASK_LOG_LINE_LENGTH } from './pve-tasks.ts';

/** The container's newest tasks shown (PVE's own default page of the task list). */
export const MAX_HISTORY_TASKS = 50;

interface ListedTask {
  upid: string;
  type: string;
  user: string;
  starttime: number;
  endtime?: number;
  status?: string;
}

const failed = (status: string | undefined) => !!status && status !== 'OK' && !status.startsWith('WARNINGS');

const epoch = (date: Date | undefined) => (date ? Math.floor(date.getTime() / 1000) : undefined);

/** One task's log as the node keeps it, at most MAX_TASK_LOG_LINES lines, each cut to its bound. */
async function taskLog(client: PveClient, nodeName: string, upid: string, signal: AbortSignal) {
  const path = `/nodes/${encodeURIComponent(nodeName)}/tasks/${encodeURIComponent(upid)}/log`;
  const lines = await client.get<Array<{ n: number; t: string }>>(
    path,
    { start: 0, limit: MAX_TASK_LOG_LINES },
    signal,
  );
  // An empty log answers one placeholder line `{n:1, t:"no content"}`.
  if (lines?.length === 1 && lines[0]!.t === 'no content') return [];
  return (lines ?? []).map((line) => String(line.t).slice(0, MAX_TASK_LOG_LINE_LENGTH));
}

/**
 * A Proxmox VE container's task history as log lines, oldest task first: a header per task
 * (`vzstart by root@pam: OK`), then its log; a failed task's header and `TASK ERROR` line are stderr.
 * Every line carries its task's start time (the task log has no time per line). PVE has no push for
 * new tasks, so there is nothing to follow: the history ends the stream.
 */
export async function pveTaskHistory(
  client: PveClient,
  nodeName: string,
  vmid: string,
  options: LogOptions,
  signal: AbortSignal,
): Promise<AsyncIterable<LogLine>> {
  const tasks =
    (await client.get<ListedTask[]>(
      `/nodes/${encodeURIComponent(nodeName)}/tasks`,
      {
        vmid,
        source: 'all',
        since: epoch(options.since),
        until: epoch(options.until),
        limit: MAX_HISTORY_TASKS,
      },
      signal,
    )) ?? [];
  const lines: LogLine[] = [];
  // The node lists newest first; tasks of the same second keep that order, reversed.
  for (const task of tasks.reverse().sort((a, b) => a.starttime - b.starttime)) {
    const time = new Date(task.starttime * 1000).toISOString();
    const header = `${task.type} by ${task.user}: ${task.status ?? 'running'}`;
    lines.push({ time, stream: failed(task.status) ? 'stderr' : 'stdout', text: header });
    for (const text of await taskLog(client, nodeName, task.upid, signal)) {
      lines.push({ time, stream: text.startsWith('TASK ERROR') ? 'stderr' : 'stdout', text });
    }
  }
  const read = options.tail === undefined ? lines : lines.slice(Math.max(0, lines.length - options.tail));
  const shown = read.filter((line) => options.streams.has(line.stream));
  return (async function* () {
    yield* shown;
  })();
}
