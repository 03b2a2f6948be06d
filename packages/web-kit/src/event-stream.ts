/** One server-sent event. */
export interface StreamEvent {
  event: string;
  data: string;
}

/**
 * Reads a server-sent event stream with fetch, for APIs whose key travels in a header (EventSource sends
 * cookies only). Calls `onEvent` for each event as it arrives; resolves when the server ends the stream
 * or `signal` aborts it, and rejects when the server answers anything but a stream (a 429 included).
 */
export async function readEventStream(
  url: string,
  init: { headers?: Record<string, string>; signal: AbortSignal },
  onEvent: (event: StreamEvent) => void,
): Promise<void> {
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...init.headers },
    signal: init.signal,
  });
  if (!response.ok || !response.body) throw new Error(`The event stream answered ${response.status}.`);
  try {
    await eachEvent(response.body, onEvent);
  } catch (error) {
    if (!init.signal.aborted) throw error;
  }
}

/** Splits a stream's bytes into events (the `text/event-stream` format; comments and ids are skipped). */
export async function eachEvent(body: ReadableStream<Uint8Array>, onEvent: (event: StreamEvent) => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let event = 'message';
  let data: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    const lines = buffered.split(/\r\n|\r|\n/);
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data.length) onEvent({ event, data: data.join('\n') });
        event = 'message';
        data = [];
        continue;
      }
      const colon = line.indexOf(':');
      if (colon === 0) continue;
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  }
}
