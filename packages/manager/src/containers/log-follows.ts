import type { ServerResponse } from 'node:http';
import { StreamPlaces, type StreamPlace, type StreamPlacesOptions } from '@app/server-kit';
import { fail } from '../errors/catalogue.ts';
import type { LogLine } from '../providers/types.ts';

/** A client this far behind (bytes queued) is dropped; it follows again from the last line it has. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export type LogFollowLimits = Omit<StreamPlacesOptions, 'refuse'>;

/** Open followed logs (server-sent events), capped per user and in all (see StreamPlaces). */
export class LogFollows extends StreamPlaces {
  constructor(limits: LogFollowLimits) {
    super({
      ...limits,
      refuse: (held) =>
        fail(
          'too_many_streams',
          held === undefined
            ? 'The server follows too many logs; try again shortly.'
            : `You follow ${held} logs already; close one first.`,
          undefined,
          { 'retry-after': '5' },
        ),
    });
  }

  /**
   * Sends `lines` to `response` as `line` events until they end (then an `end` event) or the client goes;
   * `failed` turns an error while reading into the `failure` event's message. Gives `place` back.
   */
  async stream(
    place: StreamPlace,
    response: ServerResponse,
    lines: AsyncIterable<LogLine>,
    abort: AbortController,
    failed: (error: unknown) => string,
  ): Promise<void> {
    this.open(place, response, () => abort.abort());
    // No `retry:` advice: the client decides whether to follow again (and from when).
    response.write(': following\n\n');
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
}
