import { describe, expect, it } from 'vitest';
import { Demultiplexer, MAX_LOG_LINE_CHARS, parseTimestamped } from './engine-logs.ts';

/** One frame of the engine's multiplexed stream: type (1 stdout, 2 stderr), three zero bytes, size, payload. */
function frame(type: number, text: string): Uint8Array {
  const payload = new TextEncoder().encode(text);
  const bytes = new Uint8Array(8 + payload.byteLength);
  bytes[0] = type;
  new DataView(bytes.buffer).setUint32(4, payload.byteLength);
  bytes.set(payload, 8);
  return bytes;
}

const joined = (...parts: Uint8Array[]) => {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.byteLength;
  }
  return all;
};

describe('engine log frames', () => {
  it('splits frames into lines per stream, across any chunk boundary', () => {
    const stream = joined(
      frame(1, '2026-11-27T23:00:00.123456789Z tick 1\n2026-11-27T23:00:01.000000000Z ti'),
      frame(2, '2026-11-27T23:00:00.500000000Z oops 1\n'),
      frame(1, 'ck 2\n'),
      frame(0, 'stdin is ignored\n'),
    );
    // Every split point, header bytes included, gives the same lines.
    for (let cut = 0; cut <= stream.byteLength; cut += 1) {
      const demux = new Demultiplexer();
      const lines = [
        ...demux.push(stream.subarray(0, cut)),
        ...demux.push(stream.subarray(cut)),
        ...demux.flush(),
      ];
      expect(lines, `cut at ${cut}`).toEqual([
        { time: '2026-11-27T23:00:00.123Z', stream: 'stdout', text: 'tick 1' },
        { time: '2026-11-27T23:00:00.500Z', stream: 'stderr', text: 'oops 1' },
        { time: '2026-11-27T23:00:01.000Z', stream: 'stdout', text: 'tick 2' },
      ]);
    }
  });

  it('keeps a last line without newline, cuts an over-long line, and keeps multi-byte characters whole', () => {
    const long = 'x'.repeat(MAX_LOG_LINE_CHARS + 10);
    const text = `2026-11-27T23:00:00Z ${long}\n2026-11-27T23:00:02Z grüße`;
    const bytes = frame(1, text);
    const demux = new Demultiplexer();
    // Split inside the two-byte ü.
    const at = bytes.byteLength - 4;
    const lines = [...demux.push(bytes.subarray(0, at)), ...demux.push(bytes.subarray(at)), ...demux.flush()];
    expect(lines.map((line) => line.text.length)).toEqual([MAX_LOG_LINE_CHARS - 21, 5]);
    expect(lines[1]).toEqual({ time: '2026-11-27T23:00:02.000Z', stream: 'stdout', text: 'grüße' });
  });

  it('reads the timestamp the engine puts first, or keeps a line without one whole', () => {
    expect(parseTimestamped('stderr', '2026-11-27T23:00:00.000000001Z a b')).toEqual({
      time: '2026-11-27T23:00:00.000Z',
      stream: 'stderr',
      text: 'a b',
    });
    expect(parseTimestamped('stdout', 'no time here').text).toBe('no time here');
  });
});
