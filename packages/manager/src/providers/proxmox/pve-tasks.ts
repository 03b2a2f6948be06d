import { ProviderError, type OperationContext } from '../types.ts';
import { cleanupSignal, pause } from '../pause.ts';
import type { PveClient } from './pve-client.ts';

interface TaskStatus {
  status: 'running' | 'stopped';
  exitstatus?: string;
}

export interface TaskWaitOptions {
  /** Interval between status polls. */
  pollMs: number;
  /** Bound on the call that stops the task on the node when the job is aborted. */
  stopTimeoutMs: number;
}

const PAGE = 500;
/** Lines of one task copied into the job output, and the length each is cut to. */
export const MAX_TASK_LOG_LINES = 1000;
export const MAX_TASK_LOG_LINE_LENGTH = 4096;

const cut = (text: string) =>
  text.length > MAX_TASK_LOG_LINE_LENGTH ? `${text.slice(0, MAX_TASK_LOG_LINE_LENGTH)}…` : text;

/**
 * Polls a worker task of `nodeName` until it stops, copying its log into the job output as it grows;
 * throws the exit status unless the task ended OK (or with warnings). An aborted job stops the task.
 */
export async function waitForTask(
  client: PveClient,
  nodeName: string,
  upid: string,
  ctx: OperationContext,
  options: TaskWaitOptions,
): Promise<void> {
  const base = `/nodes/${encodeURIComponent(nodeName)}/tasks/${encodeURIComponent(upid)}`;
  let next = 0;
  let copied = 0;
  const copyLog = async () => {
    // One page more than the cap is asked for, to tell whether lines were left out.
    while (copied <= MAX_TASK_LOG_LINES) {
      const lines = await client.get<Array<{ n: number; t: string }>>(
        `${base}/log`,
        { start: next, limit: PAGE },
        ctx.signal,
      );
      // An empty log answers one placeholder line `{n:1, t:"no content"}`: it is not line 1.
      if (next === 0 && lines?.length === 1 && lines[0]!.t === 'no content') return;
      for (const line of lines ?? []) {
        if (copied === MAX_TASK_LOG_LINES) {
          await ctx.log(
            `The task log has more than ${MAX_TASK_LOG_LINES} lines; the rest is not copied here (the node keeps it: ${upid}).`,
          );
          copied += 1;
          return;
        }
        await ctx.log(cut(String(line.t)));
        copied += 1;
        next = Math.max(next, Number(line.n) || next);
      }
      if (!lines || lines.length < PAGE) return;
    }
  };
  try {
    for (;;) {
      const status = await client.get<TaskStatus>(`${base}/status`, {}, ctx.signal);
      await copyLog();
      if (status.status === 'stopped') {
        const exit = status.exitstatus ?? 'unexpected status';
        if (exit !== 'OK' && !exit.startsWith('WARNINGS')) throw new ProviderError(exit);
        return;
      }
      await pause(options.pollMs, ctx.signal);
    }
  } catch (error) {
    if (ctx.signal.aborted) {
      // Stop the task on the node too, best effort.
      await client.delete(base, {}, cleanupSignal(options.stopTimeoutMs)).catch(() => undefined);
    }
    throw error;
  }
}
