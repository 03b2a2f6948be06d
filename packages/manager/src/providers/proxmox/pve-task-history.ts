import { setTimeout as delay } from 'node:timers/promises';
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

/** How often a follower asks the node for new tasks and the running tasks' new lines. */
export const FOLLOW_POLL_MS = 1000;

const taskPath = (nodeName: string, upid: string) =>
  `/nodes/${encodeURIComponent(nodeName)}/tasks/${encodeURIComponent(upid)}/log`;

/** A task's log from line `start` on (at most MAX_TASK_LOG_LINES lines, each cut to its bound). */
async function taskLog(
  client: PveClient,
  nodeName: string,
  upid: string,
  start: number,
  signal: AbortSignal,
) {
  const lines = await client.get<Array<{ n: number; t: string }>>(
    taskPath(nodeName, upid),
    { start, limit: MAX_TASK_LOG_LINES },
    signal,
  );
  // An empty log answers one placeholder line `{n:1, t:"no content"}`.
  if (lines?.length === 1 && lines[0]!.t === 'no content') return [];
  return (lines ?? []).map((line) => String(line.t).slice(0, MAX_TASK_LOG_LINE_LENGTH));
}

/** What was shown of a task: how many of its log lines, and whether it had ended then. */
interface Shown {
  starttime: number;
  lines: number;
  ended: boolean;
}

/**
 * Reads a container's tasks into log lines: a header per task (`vzstart by root@pam: OK`), then its log;
 * a failed task's header and `TASK ERROR` line are stderr. Every line carries its task's start time
 * (the task log has no time per line). Remembers what it showed, so that a follower gets only what is new.
 */
class TaskReader {
  private readonly shown = new Map<string, Shown>();
  private newest: number | undefined;

  constructor(
    private readonly client: PveClient,
    private readonly nodeName: string,
    private readonly vmid: string,
    private readonly signal: AbortSignal,
  ) {}

  /** The lines not shown yet of the tasks (at most MAX_HISTORY_TASKS, the newest) started in the window. */
  async read(since: number | undefined, until: number | undefined): Promise<LogLine[]> {
    const tasks =
      (await this.client.get<ListedTask[]>(
        `/nodes/${encodeURIComponent(this.nodeName)}/tasks`,
        { vmid: this.vmid, source: 'all', since, until, limit: MAX_HISTORY_TASKS },
        this.signal,
      )) ?? [];
    const lines: LogLine[] = [];
    // The node lists newest first; tasks of the same second keep that order, reversed.
    for (const task of tasks.reverse().sort((a, b) => a.starttime - b.starttime)) {
      lines.push(...(await this.linesOf(task)));
    }
    return lines;
  }

  /** The lines of `task` not shown yet: its header the first time, then the log lines it gained. */
  private async linesOf(task: ListedTask): Promise<LogLine[]> {
    const before = this.shown.get(task.upid);
    if (before?.ended) return [];
    const time = new Date(task.starttime * 1000).toISOString();
    const lines: LogLine[] = [];
    if (!before) {
      const header = `${task.type} by ${task.user}: ${task.status ?? 'running'}`;
      lines.push({ time, stream: failed(task.status) ? 'stderr' : 'stdout', text: header });
    }
    const texts = await taskLog(this.client, this.nodeName, task.upid, before?.lines ?? 0, this.signal);
    for (const text of texts) {
      lines.push({ time, stream: text.startsWith('TASK ERROR') ? 'stderr' : 'stdout', text });
    }
    const shown = {
      starttime: task.starttime,
      lines: (before?.lines ?? 0) + texts.length,
      ended: !!task.status,
    };
    this.shown.set(task.upid, shown);
    this.newest = Math.max(this.newest ?? 0, task.starttime);
    return lines;
  }

  /**
   * What is new since the last call: the tasks started since the newest one shown (that second
   * included) or the oldest one still running, whichever is older, read for what was not shown yet.
   */
  news(since: number | undefined): Promise<LogLine[]> {
    const running = [...this.shown.values()].filter((shown) => !shown.ended);
    const from = Math.min(this.newest ?? since ?? 0, ...running.map((shown) => shown.starttime));
    return this.read(from || undefined, undefined);
  }
}

/**
 * A Proxmox VE container's task history as log lines, oldest task first (see TaskReader). PVE has no
 * push for new tasks or lines: following asks the node every FOLLOW_POLL_MS for tasks started since
 * the newest one shown and for the new lines of those still running, until `signal` aborts.
 */
export async function pveTaskHistory(
  client: PveClient,
  nodeName: string,
  vmid: string,
  options: LogOptions,
  signal: AbortSignal,
): Promise<AsyncIterable<LogLine>> {
  const reader = new TaskReader(client, nodeName, vmid, signal);
  const lines = await reader.read(epoch(options.since), epoch(options.until));
  const read = options.tail === undefined ? lines : lines.slice(Math.max(0, lines.length - options.tail));
  const wanted = (line: LogLine) => options.streams.has(line.stream);
  // A window with an end (`until`) has nothing to follow.
  const follows = options.follow && !options.until;
  return (async function* () {
    yield* read.filter(wanted);
    while (follows) {
      await delay(FOLLOW_POLL_MS, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return;
      yield* (await reader.news(epoch(options.since))).filter(wanted);
    }
  })();
}
