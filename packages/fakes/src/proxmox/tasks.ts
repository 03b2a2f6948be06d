import { setTimeout as sleep } from 'node:timers/promises';
import { paramError } from './errors.ts';

export interface PveTask {
  upid: string;
  node: string;
  type: string;
  id: string;
  user: string;
  tokenid?: string;
  pid: number;
  pstart: number;
  starttime: number;
  status: 'running' | 'stopped';
  exitstatus?: string;
  endtime?: number;
  log: string[];
}

/** What a task does: log lines to write over the simulated time, then an effect that may throw. */
export interface TaskWork {
  lines: string[];
  /** A worker that lasts as long as something else (a console): the task ends when this settles. */
  until?: Promise<unknown>;
  /** Runs after the lines; throwing ends the task with `TASK ERROR: <message>`. */
  run?: () => void | string[];
  /** Runs when the task fails (clean-up of half-made things). */
  onError?: () => void;
  /** Put before the error text, e.g. `unable to create CT 101 - `. */
  errorPrefix?: string;
}

export interface TaskFailure {
  type?: string;
  message: string;
}

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

/** Runs PVE worker tasks: UPIDs, log lines spread over `durationMs`, final `TASK OK`/`TASK ERROR`. */
export class TaskRunner {
  readonly tasks = new Map<string, PveTask>();
  private pid = 0x2b4a8;
  private readonly failures: TaskFailure[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(public durationMs: number) {}

  /** The next task (of `type`, if given) fails with `message` after writing its log. */
  failNextTask(failure: TaskFailure): void {
    this.failures.push(failure);
  }

  start(node: string, type: string, id: string, auth: { user: string; tokenid?: string }, work: TaskWork) {
    const starttime = Math.floor(Date.now() / 1000);
    const pid = this.pid++;
    const pstart = 0x58cc61 + pid;
    const userField = auth.tokenid ? `${auth.user}!${auth.tokenid}` : auth.user;
    const upid = `UPID:${node}:${hex(pid, 8)}:${hex(pstart, 8)}:${hex(starttime, 8)}:${type}:${id}:${userField}:`;
    const task: PveTask = {
      upid,
      node,
      type,
      id,
      user: auth.user,
      pid,
      pstart,
      starttime,
      status: 'running',
      log: [],
    };
    if (auth.tokenid) task.tokenid = auth.tokenid;
    this.tasks.set(upid, task);
    const done = this.execute(task, work).finally(() => this.pending.delete(done));
    this.pending.add(done);
    return task;
  }

  /** Resolves when every running task has finished (for tests). */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  get(upid: string): PveTask {
    if (!/^UPID:[^:]+:[0-9A-F]{8}:[0-9A-F]{8,9}:[0-9A-F]{8}:[^:]*:[^:]*:[^:]+:$/i.test(upid)) {
      throw paramError({ upid: 'unable to parse worker upid' });
    }
    const task = this.tasks.get(upid);
    if (!task) throw paramError({ upid: 'no such task' });
    return task;
  }

  private async execute(task: PveTask, work: TaskWork): Promise<void> {
    const step = this.durationMs / (work.lines.length + 1);
    for (const line of work.lines) {
      if (step > 0) await sleep(step);
      task.log.push(line);
    }
    if (step > 0) await sleep(step);
    await work.until;
    const failureIndex = this.failures.findIndex((f) => !f.type || f.type === task.type);
    try {
      if (failureIndex !== -1) throw new Error(this.failures.splice(failureIndex, 1)[0]!.message);
      const more = work.run?.();
      if (more) task.log.push(...more);
      task.log.push('TASK OK');
      task.exitstatus = 'OK';
    } catch (error) {
      work.onError?.();
      const message = `${work.errorPrefix ?? ''}${(error as Error).message}`;
      task.log.push(`TASK ERROR: ${message}`);
      task.exitstatus = message;
    }
    task.endtime = Math.floor(Date.now() / 1000);
    task.status = 'stopped';
  }
}
