import { asTransportError } from '../http.ts';
import type { LogLine, LogOptions, LogStream } from '../types.ts';
import { engineFailure, type EngineClient } from './engine-client.ts';

/** A longer line is cut here (the rest of it is dropped), so one line cannot take the manager's memory. */
export const MAX_LOG_LINE_CHARS = 16 * 1024;
/** How long a followed log may stay open; the caller's signal ends it sooner. */
const FOLLOW_MS = 24 * 3600_000;
const HEADER_BYTES = 8;
const STREAMS: Record<number, LogStream> = { 1: 'stdout', 2: 'stderr' };

/** `2026-11-27T23:00:00.123456789Z text` (what `timestamps=1` prefixes) → time and text. */
export function parseTimestamped(stream: LogStream, raw: string): LogLine {
  const space = raw.indexOf(' ');
  const stamp = space > 0 ? raw.slice(0, space) : raw;
  const parsed = Date.parse(stamp);
  if (Number.isNaN(parsed)) return { time: new Date().toISOString(), stream, text: raw };
  return { time: new Date(parsed).toISOString(), stream, text: space > 0 ? raw.slice(space + 1) : '' };
}

/** Splits one stream's text into lines across chunk boundaries, cutting over-long lines. */
class LineSplitter {
  private pending = '';
  private readonly decoder = new TextDecoder();

  constructor(readonly stream: LogStream) {}

  push(bytes: Uint8Array): string[] {
    const text = this.pending + this.decoder.decode(bytes, { stream: true });
    const lines = text.split('\n');
    this.pending = lines.pop()!.slice(0, MAX_LOG_LINE_CHARS + 1);
    return lines.map((line) => line.replace(/\r$/, '').slice(0, MAX_LOG_LINE_CHARS));
  }

  flush(): string[] {
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    return rest ? [rest.slice(0, MAX_LOG_LINE_CHARS)] : [];
  }
}

/**
 * The engine's stream without a TTY: frames of an 8-byte header (stream type, three zero bytes, payload
 * size as uint32 big-endian) and the payload, framed independently of lines.
 */
export class Demultiplexer {
  private buffer = new Uint8Array(0);
  private readonly splitters = new Map<LogStream, LineSplitter>();

  push(chunk: Uint8Array): LogLine[] {
    const joined = new Uint8Array(this.buffer.byteLength + chunk.byteLength);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.byteLength);
    const lines: LogLine[] = [];
    let offset = 0;
    while (joined.byteLength - offset >= HEADER_BYTES) {
      const view = new DataView(joined.buffer, joined.byteOffset + offset, HEADER_BYTES);
      const size = view.getUint32(4);
      if (joined.byteLength - offset - HEADER_BYTES < size) break;
      const stream = STREAMS[joined[offset]!];
      const payload = joined.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + size);
      offset += HEADER_BYTES + size;
      if (stream)
        lines.push(
          ...this.splitter(stream)
            .push(payload)
            .map((raw) => parseTimestamped(stream, raw)),
        );
    }
    this.buffer = joined.slice(offset);
    return lines;
  }

  flush(): LogLine[] {
    return [...this.splitters.values()].flatMap((splitter) =>
      splitter.flush().map((raw) => parseTimestamped(splitter.stream, raw)),
    );
  }

  private splitter(stream: LogStream) {
    let splitter = this.splitters.get(stream);
    if (!splitter) this.splitters.set(stream, (splitter = new LineSplitter(stream)));
    return splitter;
  }
}

/** A TTY container's stream: one text stream, reported as stdout. */
class RawLines {
  private readonly splitter = new LineSplitter('stdout');

  push(chunk: Uint8Array): LogLine[] {
    return this.splitter.push(chunk).map((raw) => parseTimestamped('stdout', raw));
  }

  flush(): LogLine[] {
    return this.splitter.flush().map((raw) => parseTimestamped('stdout', raw));
  }
}

/**
 * Whole seconds around the window: engines read the fraction of `since`/`until` differently (Docker as
 * nanoseconds, Podman not at all), so the engine is asked for a little more and the lines are cut here.
 */
const secondsBefore = (date: Date) => String(Math.floor(date.getTime() / 1000));
const secondsAfter = (date: Date) => String(Math.floor(date.getTime() / 1000) + 1);
/** A container's logs through `GET /containers/{id}/logs` (timestamps on; following when asked). */
export async function engineLogs(
  client: EngineClient,
  containerId: string,
  options: LogOptions,
  signal: AbortSignal,
): Promise<AsyncIterable<LogLine>> {
  const path = `/containers/${encodeURIComponent(containerId)}`;
  const inspected = await client.json<{ Config: { Tty?: boolean } }>({
    method: 'GET',
    path: `${path}/json`,
    signal,
  });
  const tty = inspected.body?.Config.Tty === true;
  // A TTY has one stream, which the engine gives as stdout.
  if (tty && !options.streams.has('stdout')) return noLines();
  const response = await client.send({
    method: 'GET',
    path: `${path}/logs`,
    query: {
      stdout: options.streams.has('stdout'),
      stderr: options.streams.has('stderr') || undefined,
      timestamps: true,
      follow: options.follow && !options.until,
      since: options.since && secondsBefore(options.since),
      until: options.until && secondsAfter(options.until),
      tail: options.tail ?? 'all',
    },
    signal,
    timeoutMs: options.follow ? FOLLOW_MS : undefined,
  });
  const what = `GET ${path}/logs`;
  if (response.status !== 200) throw await engineFailure(response, what, signal);
  const lines = readLines(
    response.body ?? noBytes(),
    tty ? new RawLines() : new Demultiplexer(),
    what,
    signal,
  );
  return within(lines, options.since?.getTime() ?? -Infinity, options.until?.getTime() ?? Infinity);
}

async function* noLines(): AsyncGenerator<LogLine> {}
async function* noBytes(): AsyncGenerator<Uint8Array> {}

/** The lines written from `since` through `until` (milliseconds, both included). */
async function* within(lines: AsyncIterable<LogLine>, since: number, until: number): AsyncGenerator<LogLine> {
  for await (const line of lines) {
    const time = Date.parse(line.time);
    if (time >= since && time <= until) yield line;
  }
}

async function* readLines(
  body: AsyncIterable<unknown>,
  reader: RawLines | Demultiplexer,
  what: string,
  signal: AbortSignal,
): AsyncGenerator<LogLine> {
  try {
    for await (const chunk of body) yield* reader.push(chunk as Uint8Array);
  } catch (error) {
    throw asTransportError(error, what, signal);
  }
  yield* reader.flush();
}
