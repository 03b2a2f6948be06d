export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** Reads a server-sent event stream until it ends (or `stop` says so); returns every event and comment. */
export async function readSse(
  url: string,
  headers: Record<string, string>,
  options: { stop?: (event: SseEvent) => boolean; signal?: AbortSignal } = {},
): Promise<{ status: number; events: SseEvent[]; comments: string[]; contentType: string | null }> {
  const response = await fetch(url, { headers, signal: options.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  if (!response.body || response.status !== 200) {
    return { status: response.status, events, comments, contentType: response.headers.get('content-type') };
  }
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let index: number;
      while ((index = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        const event: SseEvent = { event: 'message', data: '' };
        let isEvent = false;
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.startsWith('id: ')) event.id = line.slice(4);
          else if (line.startsWith('event: ')) {
            event.event = line.slice(7);
            isEvent = true;
          } else if (line.startsWith('data: ')) {
            event.data += line.slice(6);
            isEvent = true;
          }
        }
        if (isEvent) {
          events.push(event);
          if (options.stop?.(event)) {
            await reader.cancel();
            return {
              status: response.status,
              events,
              comments,
              contentType: response.headers.get('content-type'),
            };
          }
        }
      }
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error;
  }
  return { status: response.status, events, comments, contentType: response.headers.get('content-type') };
}
