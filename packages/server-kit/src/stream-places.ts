import type { ServerResponse } from 'node:http';

/** Who holds a stream place (the manager's users are numbers, the translator's projects strings). */
export type StreamHolder = number | string;

export interface StreamPlace {
  /** Gives the place back; later calls do nothing. */
  release(): void;
}

export interface StreamPlacesOptions {
  /** Places one holder may take, and all holders together (per process). */
  perUser: number;
  total: number;
  keepAliveMs: number;
  /**
   * The service's refusal (429, from its error catalogue): `held` is what the holder has when they are at
   * their own limit, absent when the server is full.
   */
  refuse: (held?: number) => Error;
}

const SSE_HEAD = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * Bounded places for long-lived server-sent event streams, per holder and in all, with one keep-alive
 * timer for every open stream. A place is taken before the reply is hijacked, so a refusal is an
 * ordinary error answer; it is given back when its stream closes (or by hand, if it never opens).
 */
export class StreamPlaces {
  private readonly streams = new Set<ServerResponse>();
  private readonly heldBy = new Map<StreamHolder, number>();
  private taken = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly limits: StreamPlacesOptions) {
    this.timer = setInterval(() => {
      for (const response of this.streams) response.write(': keep-alive\n\n');
    }, limits.keepAliveMs);
    this.timer.unref();
  }

  /** Open streams. */
  get size() {
    return this.streams.size;
  }

  /** Takes one of `holder`'s places, or throws the service's refusal. */
  reserve(holder: StreamHolder): StreamPlace {
    const held = this.heldBy.get(holder) ?? 0;
    if (held >= this.limits.perUser) throw this.limits.refuse(held);
    if (this.taken >= this.limits.total) throw this.limits.refuse();
    this.heldBy.set(holder, held + 1);
    this.taken += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.taken -= 1;
        const left = (this.heldBy.get(holder) ?? 1) - 1;
        if (left > 0) this.heldBy.set(holder, left);
        else this.heldBy.delete(holder);
      },
    };
  }

  /**
   * Answers `response` with an event stream held in `place`: it gets keep-alive comments until it
   * closes, then `onClose` runs and the place is given back.
   */
  open(place: StreamPlace, response: ServerResponse, onClose: () => void): void {
    response.writeHead(200, SSE_HEAD);
    this.streams.add(response);
    response.on('close', () => {
      onClose();
      this.streams.delete(response);
      place.release();
    });
  }

  /** Ends every stream (server shutdown). */
  closeAll() {
    clearInterval(this.timer);
    for (const response of this.streams) response.end();
    this.streams.clear();
  }
}
