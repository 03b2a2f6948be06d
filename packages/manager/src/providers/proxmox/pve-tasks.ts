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
  const copyLog = async () => {
    for (;;) {
      const lines = await client.get<Array<{ n: number; t: string }>>(
        `${base}/log`,
        { start: next, limit: PAGE },
        ctx.signal,
      );
      // An empty log answers one placeholder line `{n:1, t:"no content"}`: it is not line 1.
      if (next === 0 && lines?.length === 1 && lines[0]!.t === 'no content') return;
      for (const line of lines ?? []) {
        await ctx.log(line.t);
        next = Math.max(next, line.n);
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
