import { pause } from '../pause.ts';
import type { LogLine, LogOptions } from '../types.ts';

/** A simulated instance prints one line a second from its creation; every fifth goes to stderr. */
export const DUMMY_LOG_INTERVAL_MS = 1000;
const PATHS = ['/', '/health', '/api/items', '/static/app.js'];

/** Line `index` of an instance created at `origin` (ms): derived, so every reader sees the same log. */
export function dummyLine(origin: number, index: number): LogLine {
  const time = new Date(origin + index * DUMMY_LOG_INTERVAL_MS).toISOString();
  if (index % 5 === 4) return { time, stream: 'stderr', text: `warning: slow request #${index} (1200 ms)` };
  return { time, stream: 'stdout', text: `GET ${PATHS[index % PATHS.length]} 200 #${index}` };
}

const firstIndexAtOrAfter = (origin: number, at: number) =>
  Math.max(0, Math.ceil((at - origin) / DUMMY_LOG_INTERVAL_MS));

/**
 * The lines of `options`' window, then (following, while `running` says so) each new line when its
 * second comes.
 */
export async function* dummyLogs(
  createdAt: string,
  running: () => Promise<boolean>,
  options: LogOptions,
  signal: AbortSignal,
): AsyncGenerator<LogLine> {
  const origin = Date.parse(createdAt);
  const wanted = (line: LogLine) => options.streams.has(line.stream);
  const now = Date.now();
  const end = Math.min(now, options.until?.getTime() ?? now);
  const first = firstIndexAtOrAfter(origin, options.since?.getTime() ?? origin);
  // Exclusive: the lines written before `end`.
  const last = firstIndexAtOrAfter(origin, end + 1);
  const history: LogLine[] = [];
  // Newest first, so a tail reads no further back than it needs; as on an engine, it counts both streams.
  const oldest = options.tail === undefined ? first : Math.max(first, last - options.tail);
  for (let index = last - 1; index >= oldest; index -= 1) {
    const line = dummyLine(origin, index);
    if (wanted(line)) history.push(line);
  }
  yield* history.reverse();
  if (!options.follow || options.until) return;
  for (let index = last; !signal.aborted; index += 1) {
    await pause(Math.max(0, origin + index * DUMMY_LOG_INTERVAL_MS - Date.now()), signal);
    if (!(await running())) return;
    const line = dummyLine(origin, index);
    if (wanted(line)) yield line;
  }
}
