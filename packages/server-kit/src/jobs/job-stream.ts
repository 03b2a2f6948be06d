import type { ServerResponse } from 'node:http';
import { StreamPlaces, type StreamPlace } from '../stream-places.ts';
import type { JobReader } from './job-store.ts';
import type { JobEvents } from './job-events.ts';
import {
  isFinished,
  type JobEvent,
  type JobId,
  type JobProgress,
  type JobStatus,
  type JobStatusRow,
} from './types.ts';

export interface JobStreamOptions {
  keepAliveMs: number;
  /** A client this far behind (bytes queued) is dropped; it resumes with Last-Event-ID. */
  maxBufferedBytes: number;
  /** Open streams one user may hold, and all users together (per process). */
  maxPerUser: number;
  maxTotal: number;
  /** The service's refusal (429, from its error catalogue) when a user or the server is at its limit. */
  tooMany: (message: string) => Error;
  /** The status as the service names it in its API (the engine's names when absent). */
  statusLabel?: (status: JobStatus) => string;
}

const PAGE = 1000;

const logEvent = (row: JobStatusRow<JobId>) =>
  `id: ${row.id}\nevent: log\ndata: ${JSON.stringify({ id: row.id, output: row.output ?? '', timestamp: row.createdAt })}\n\n`;

const progressEvent = (progress: JobProgress) => `event: progress\ndata: ${JSON.stringify(progress)}\n\n`;

/**
 * Server-sent events for job output. Each stream sends the stored rows after `lastId` and the job's
 * progress (for a store that keeps it), then rows and `progress` as the event bus delivers them (no
 * per-client polling), then one `status` event and the end.
 * Places are bounded per user and in all (see StreamPlaces); `closeAll` ends the streams on shutdown.
 */
export class JobStreams<Id extends JobId = number> extends StreamPlaces {
  constructor(
    private readonly repo: JobReader<Id>,
    private readonly events: JobEvents<Id>,
    private readonly options: JobStreamOptions,
  ) {
    super({
      perUser: options.maxPerUser,
      total: options.maxTotal,
      keepAliveMs: options.keepAliveMs,
      refuse: (held) =>
        options.tooMany(
          held === undefined
            ? 'The server has too many job streams open; try again shortly.'
            : `You have ${held} job streams open; close one first.`,
        ),
    });
  }

  /**
   * Streams job `jobId` to `response` (already authorised, in a `place` from `reserve`), starting after
   * row `lastId`.
   */
  async stream(jobId: Id, lastId: number, response: ServerResponse, place: StreamPlace): Promise<void> {
    let sent = lastId;
    /** Items done (completed + failed) in the last progress sent: progress only moves forward. */
    let shown = -1;
    let live = false;
    let ended = false;
    const early: JobEvent<Id>[] = [];

    const finish = (status?: JobStatus) => {
      if (ended) return;
      ended = true;
      if (status) {
        const label = this.options.statusLabel?.(status) ?? status;
        response.write(`event: status\ndata: ${JSON.stringify({ status: label })}\n\n`);
      }
      response.end();
    };
    const send = (row: JobStatusRow<Id>) => {
      if (ended || row.id <= sent) return;
      sent = row.id;
      response.write(logEvent(row));
      if (response.writableLength > this.options.maxBufferedBytes) finish();
    };
    const sendProgress = (progress: JobProgress) => {
      const done = progress.completed + progress.failed;
      if (ended || done <= shown) return;
      shown = done;
      response.write(progressEvent(progress));
    };
    const handle = (event: JobEvent<Id>) => {
      if (event.kind === 'row') send(event.row);
      else if (event.kind === 'progress') sendProgress(event.progress);
      else if (isFinished(event.status))
        void this.drainThenFinish(
          jobId,
          () => sent,
          send,
          () => finish(event.status),
        );
    };

    // Subscribe before reading the backlog, so a row written in between is buffered, not lost.
    const unsubscribe = this.events.subscribe(
      jobId,
      (event) => (live ? handle(event) : early.push(event)),
      lastId,
    );
    this.open(place, response, () => {
      ended = true;
      unsubscribe();
    });
    response.write('retry: 2000\n\n');

    try {
      await this.sendStored(
        jobId,
        () => sent,
        send,
        () => ended,
      );
      const progress = await this.repo.progressOf?.(jobId);
      if (progress) sendProgress(progress);
      live = true;
      for (const event of early.splice(0)) handle(event);
      const status = await this.repo.statusOf(jobId);
      if (status && isFinished(status))
        await this.drainThenFinish(
          jobId,
          () => sent,
          send,
          () => finish(status),
        );
    } catch {
      finish();
    }
  }

  private async sendStored(
    jobId: Id,
    sent: () => number,
    send: (row: JobStatusRow<Id>) => void,
    ended: () => boolean,
  ) {
    for (;;) {
      const rows = await this.repo.rows(jobId, { afterId: sent(), limit: PAGE });
      for (const row of rows) send(row);
      if (rows.length < PAGE || ended()) return;
    }
  }

  /** The status is written after the last row, so reading once more before `status` misses nothing. */
  private async drainThenFinish(
    jobId: Id,
    sent: () => number,
    send: (row: JobStatusRow<Id>) => void,
    finish: () => void,
  ) {
    try {
      await this.sendStored(jobId, sent, send, () => false);
    } finally {
      finish();
    }
  }
}
