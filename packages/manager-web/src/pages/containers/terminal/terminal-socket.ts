/** What the browser shows for a close the server gave no `{type:'exit'}` reason for (see the API's summary). */
const CLOSE_REASONS: Record<number, string> = {
  1000: 'The shell ended.',
  1006: 'The connection to the manager was lost, or the terminal was refused (are you still signed in?).',
  4403: 'Your access to this container ended.',
  4408: 'Closed after a time without input.',
  4429: 'You have the most terminals open already: close one first.',
  4502: 'The node could not open a shell.',
};

export const closeReason = (code: number, exitReason: string | undefined) =>
  exitReason ?? CLOSE_REASONS[code] ?? `The terminal closed (code ${code}).`;

/** The terminal WebSocket of a container, on the page's own origin. */
export function terminalUrl(siteId: number, id: number, size: { cols: number; rows: number }): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const query = new URLSearchParams({ cols: String(size.cols), rows: String(size.rows) });
  return `${scheme}://${window.location.host}/api/v1/sites/${siteId}/containers/${id}/terminal?${query}`;
}

export interface TerminalEvents {
  output(bytes: Uint8Array): void;
  opened(): void;
  closed(reason: string): void;
}

const PING_MS = 30_000;

/** Opens the terminal socket: binary frames are the shell's bytes, text frames control messages. */
export function connectTerminal(url: string, events: TerminalEvents) {
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  const encoder = new TextEncoder();
  let exitReason: string | undefined;
  const send = (data: string | Uint8Array<ArrayBuffer>) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(data);
  };
  const ping = setInterval(() => send(JSON.stringify({ type: 'ping' })), PING_MS);
  socket.onopen = () => events.opened();
  socket.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
    if (typeof event.data !== 'string') return events.output(new Uint8Array(event.data));
    const message = JSON.parse(event.data) as { type: string; reason?: string };
    if (message.type === 'exit') exitReason = message.reason;
  };
  socket.onclose = (event) => {
    clearInterval(ping);
    events.closed(closeReason(event.code, exitReason));
  };
  return {
    type: (text: string) => send(encoder.encode(text)),
    resize: (cols: number, rows: number) => send(JSON.stringify({ type: 'resize', cols, rows })),
    close() {
      clearInterval(ping);
      socket.onclose = null;
      socket.close();
    },
  };
}
