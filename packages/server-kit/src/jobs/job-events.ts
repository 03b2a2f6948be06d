import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DialectName } from '../database.ts';
import type { PgListener } from '../pg-listener.ts';
import type { JobReader } from './job-store.ts';
import { isFinished, type JobEvent, type JobId, type JobProgress, type JobStatus } from './types.ts';

export type Announcement<Id extends JobId = number> =
  { kind: 'new'; jobId: Id } | Exclude<JobEvent<Id>, { kind: 'row' }>;

type Listener<Id extends JobId> = (event: JobEvent<Id>) => void;

interface Feed<Id extends JobId> {
  listeners: Set<Listener<Id>>;
  /** Highest row id this feed has passed to listeners (rows are only ever emitted past it). */
  cursor: number;
  /** Fetches from the database run one after another, so events stay in row order. */
  chain: Promise<void>;
  finishedSent: boolean;
  /** The last progress passed to listeners (the same progress is not sent twice). */
  progress: string;
}

export interface JobEventsOptions<Id extends JobId = number> {
  dialect: DialectName;
  /** Reads a job id back from a notification's text. */
  parseId: (text: string) => Id;
  /** PostgreSQL: the process's LISTEN connection (started and closed by its owner). */
  listener?: PgListener | undefined;
  log: FastifyBaseLogger;
  /** Without a listener: how often jobs with subscribers are re-read, for writers in other processes. */
  resyncMs?: number;
}

const PAGE = 1000;

/**
 * The job event bus. In one process, rows and status changes reach subscribers the moment they are
 * written. On PostgreSQL every change is also announced with NOTIFY (payload `origin:kind:job:value`,
 * a few bytes; the rows themselves are read once per process, not once per client), so any number of
 * API and worker processes share it. Without a listener (SQLite) a second process (`--role worker`) is
 * caught up by one re-read per watched job every `resyncMs`.
 */
export class JobEvents<Id extends JobId = number> {
  readonly origin = randomBytes(6).toString('hex');
  readonly channel: string;
  private readonly feeds = new Map<Id, Feed<Id>>();
  private readonly newJobListeners = new Set<() => void>();
  private reader: JobReader<Id> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private notifier: ((payload: string) => Promise<void>) | undefined;

  constructor(private readonly options: JobEventsOptions<Id>) {
    this.channel = options.listener?.channelName('job_events') ?? 'job_events';
    options.listener?.on(this.channel, {
      onMessage: (payload) => {
        if (payload) this.onNotification(payload);
      },
      // Anything announced while the connection was away is read back from the tables.
      onGap: () => {
        this.resyncAll();
        for (const listener of [...this.newJobListeners]) listener();
      },
    });
  }

  bind(reader: JobReader<Id>, notify?: (payload: string) => Promise<void>) {
    this.reader = reader;
    this.notifier = notify;
  }

  /** Without a listener: starts the re-read of watched jobs. */
  start(): void {
    if (this.options.listener) return;
    this.timer = setInterval(() => this.resyncAll(), this.options.resyncMs ?? 500);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Listens to one job. The first subscriber of a job in this process starts its feed at `afterId`
   * (the rows it has already read), so a catch-up from the database never skips a row it has not
   * seen; later subscribers read their own backlog and drop rows they already have.
   */
  subscribe(jobId: Id, listener: Listener<Id>, afterId = 0): () => void {
    let feed = this.feeds.get(jobId);
    if (!feed) {
      feed = {
        listeners: new Set(),
        cursor: afterId,
        chain: Promise.resolve(),
        finishedSent: false,
        progress: '',
      };
      this.feeds.set(jobId, feed);
    }
    const joined = feed;
    joined.listeners.add(listener);
    return () => {
      joined.listeners.delete(listener);
      if (!joined.listeners.size && this.feeds.get(jobId) === joined) this.feeds.delete(jobId);
    };
  }

  /** Called when a job is queued (here or in another process): wakes idle workers. */
  onNewJob(listener: () => void): () => void {
    this.newJobListeners.add(listener);
    return () => this.newJobListeners.delete(listener);
  }

  /** Delivers an event that happened in this process to this process's subscribers. */
  emitLocal(event: JobEvent<Id>) {
    const jobId = event.kind === 'row' ? event.row.jobId : event.jobId;
    const feed = this.feeds.get(jobId);
    if (!feed) return;
    if (event.kind === 'row') {
      if (event.row.id <= feed.cursor) return;
      feed.cursor = event.row.id;
    } else if (event.kind === 'progress') {
      const key = progressText(event.progress);
      if (key === feed.progress) return;
      feed.progress = key;
    } else if (isFinished(event.status)) {
      feed.finishedSent = true;
    }
    for (const listener of [...feed.listeners]) listener(event);
  }

  /** Tells this process and (on PostgreSQL) every other one about a new job, progress or a status change. */
  async announce(announcement: Announcement<Id>): Promise<void> {
    if (announcement.kind === 'new') for (const listener of [...this.newJobListeners]) listener();
    else this.emitLocal(announcement);
    if (this.options.dialect !== 'postgres' || !this.notifier) return;
    const [kind, value] =
      announcement.kind === 'new'
        ? ['n', '']
        : announcement.kind === 'status'
          ? ['s', announcement.status]
          : ['p', progressText(announcement.progress)];
    await this.notifier(`${this.origin}:${kind}:${announcement.jobId}:${value}`);
  }

  private requireReader(): JobReader<Id> {
    if (!this.reader) throw new Error('JobEvents used before bind()');
    return this.reader;
  }

  private onNotification(payload: string) {
    const [origin, kind, job, value] = payload.split(':');
    if (origin === this.origin) return;
    if (kind === 'n') {
      for (const listener of [...this.newJobListeners]) listener();
      return;
    }
    const jobId = this.options.parseId(job ?? '');
    const feed = this.feeds.get(jobId);
    if (!feed) return;
    this.enqueue(feed, jobId, async () => {
      await this.catchUp(feed, jobId);
      if (kind === 's') this.emitLocal({ kind: 'status', jobId, status: value as JobStatus });
      if (kind === 'p') this.emitLocal({ kind: 'progress', jobId, progress: parseProgress(value ?? '') });
    });
  }

  private enqueue(feed: Feed<Id>, jobId: Id, step: () => Promise<void>) {
    feed.chain = feed.chain.then(step).catch((error: unknown) => {
      this.options.log.warn({ err: error, jobId }, 'job feed read failed');
    });
  }

  private async catchUp(feed: Feed<Id>, jobId: Id) {
    for (;;) {
      const rows = await this.requireReader().rows(jobId, { afterId: feed.cursor, limit: PAGE });
      for (const row of rows) this.emitLocal({ kind: 'row', row });
      if (rows.length < PAGE) return;
    }
  }

  private resyncAll() {
    for (const [jobId, feed] of this.feeds) {
      this.enqueue(feed, jobId, async () => {
        await this.catchUp(feed, jobId);
        const progress = await this.requireReader().progressOf?.(jobId);
        if (progress) this.emitLocal({ kind: 'progress', jobId, progress });
        const status = await this.requireReader().statusOf(jobId);
        if (status && isFinished(status) && !feed.finishedSent)
          this.emitLocal({ kind: 'status', jobId, status });
      });
    }
  }
}

/** Progress in a notification: `total,completed,failed`. */
const progressText = ({ total, completed, failed }: JobProgress) => `${total},${completed},${failed}`;

function parseProgress(text: string): JobProgress {
  const [total = 0, completed = 0, failed = 0] = text.split(',').map(Number);
  return { total, completed, failed };
}
