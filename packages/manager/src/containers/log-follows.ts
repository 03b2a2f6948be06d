import type { ServerResponse } from 'node:http';
import { fail } from '../errors/catalogue.ts';
import type { LogLine } from '../providers/types.ts';

/** A client this far behind (bytes queued) is dropped; it follows again from the last line it has. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface FollowPlace {
  release(): void;
}

export interface LogFollowLimits {
  perUser: number;
  total: number;
  keepAliveMs: number;
}

/**
 * Open followed logs (server-sent events), capped per user and in all, with one keep-alive timer for
 * every open stream. A place is taken before the reply is hijacked, so a refusal is an ordinary 429.
 */
export class LogFollows {
  private readonly open = new Set<ServerResponse>();
  private readonly heldBy = new Map<number, number>();
  private taken = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly limits: LogFollowLimits) {
    this.timer = setInterval(() => {
      for (const response of this.open) response.write(': keep-alive\n\n');
    }, limits.keepAliveMs);
    this.timer.unref();
  }

  get size() {
    return this.open.size;
  }

  /** Takes one of `uid`'s places, or refuses (429); the place is given back once, by `release`. */
  reserve(uid: number): FollowPlace {
    const held = this.heldBy.get(uid) ?? 0;
    const full =
      held >= this.limits.perUser
        ? `You follow ${held} logs already; close one first.`
        : this.taken >= this.limits.total
          ? 'The server follows too many logs; try again shortly.'
          : undefined;
    if (full) throw fail('too_many_streams', full, undefined, { 'retry-after': '5' });
    this.heldBy.set(uid, held + 1);
    this.taken += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.taken -= 1;
        const left = (this.heldBy.get(uid) ?? 1) - 1;
        if (left > 0) this.heldBy.set(uid, left);
        else this.heldBy.delete(uid);
      },
    };
  }

  /**
   * Sends `lines` to `response` as `line` events until they end (then an `end` event) or the client goes;
   * `failed` turns an error while reading into the `failure` event's message. Gives `place` back.
   */
  async stream(
    place: FollowPlace,
    response: ServerResponse,
    lines: AsyncIterable<LogLine>,
    abort: AbortController,
    failed: (error: unknown) => string,
  ): Promise<void> {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // No `retry:` advice: the client decides whether to follow again (and from when).
    response.write(': following\n\n');
    this.open.add(response);
    response.on('close', () => {
      abort.abort();
      this.open.delete(response);
      place.release();
    });
    try {
      for await (const line of lines) {
        if (abort.signal.aborted) break;
        response.write(`event: line\ndata: ${JSON.stringify(line)}\n\n`);
        if (response.writableLength > MAX_BUFFERED_BYTES) abort.abort();
      }
      if (!abort.signal.aborted) response.write('event: end\ndata: {}\n\n');
    } catch (error) {
      if (!abort.signal.aborted)
        response.write(`event: failure\ndata: ${JSON.stringify({ message: failed(error) })}\n\n`);
    }
    response.end();
  }

  /** Ends every stream (server shutdown). */
  closeAll() {
    clearInterval(this.timer);
    for (const response of this.open) response.end();
  }
}
