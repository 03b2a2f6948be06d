import { describe, expect, it } from 'vitest';
import { eachEvent, type StreamEvent } from './event-stream.ts';

function streamOf(chunks: string[]) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('server-sent events read with fetch', () => {
  it('splits events across chunk boundaries, joins multi-line data and skips comments', async () => {
    const events: StreamEvent[] = [];
    await eachEvent(
      streamOf([
        ': keep-alive\n\nevent: prog',
        'ress\ndata: {"completed":1}\n',
        '\nid: 7\ndata: first\ndata: second\r\n\r\n',
        'event: status\ndata:{"status":"completed"}\n\n',
        'data: never dispatched without its blank line',
      ]),
      (event) => events.push(event),
    );
    expect(events).toEqual([
      { event: 'progress', data: '{"completed":1}' },
      { event: 'message', data: 'first\nsecond' },
      { event: 'status', data: '{"status":"completed"}' },
    ]);
  });
});
