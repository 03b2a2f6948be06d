import { WebSocket } from 'ws';
import type { TerminalSession, TerminalSize } from '../terminal.ts';
import { ProviderError } from '../types.ts';

/** What `POST …/termproxy` answers: the user (token id for a token) and ticket termproxy expects. */
export interface TermproxyTicket {
  user: string;
  ticket: string;
  port: number;
  upid: string;
}

/** The PVE web console pings every 30 s so that no proxy in between drops an idle session. */
const PING_MS = 30_000;
/** Keystrokes per message, well below pve-http-server's 128 KiB frame limit (larger ends the connection). */
const MAX_INPUT_BYTES = 64 * 1024;

/**
 * Speaks termproxy's protocol over an upgraded `vncwebsocket` (as pve-xtermjs does): first
 * `<user>:<ticket>\n`, answered `OK`; then `0:<byte length>:<bytes>` keystrokes, `1:<cols>:<rows>:`
 * resizes and `2` pings; everything the node sends after `OK` is the shell's output.
 */
export async function openTermproxySession(
  ws: WebSocket,
  proxy: TermproxyTicket,
  size: TerminalSize,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<TerminalSession> {
  const session = new TermproxySession(ws);
  try {
    await session.authenticate(`${proxy.user}:${proxy.ticket}\n`, options);
    await session.resize(size);
  } catch (error) {
    session.close();
    throw error;
  }
  options.signal.addEventListener('abort', () => session.close(), { once: true });
  return session;
}

class TermproxySession implements TerminalSession {
  readonly closed: Promise<{ reason: string }>;
  /** Bytes received before `OK`; undefined once it came. */
  private greeting: Buffer | undefined = Buffer.alloc(0);
  private readonly listeners: Array<(chunk: Buffer) => void> = [];
  /** Output that came before anyone listened. */
  private queued: Buffer[] = [];
  private ping?: NodeJS.Timeout;
  private closing = false;
  private failure?: Error;
  private greet!: () => void;
  private readonly greeted = new Promise<void>((resolve) => (this.greet = resolve));

  constructor(private readonly ws: WebSocket) {
    ws.on('error', (error) => (this.failure ??= error));
    ws.on('message', (data: Buffer) => this.receive(data));
    this.closed = new Promise((resolve) => {
      ws.once('close', () => {
        clearInterval(this.ping);
        resolve({ reason: this.closeReason() });
      });
    });
  }

  /** Sends the ticket line; resolves on `OK`, rejects when the node closes, the time is up, or on abort. */
  async authenticate(line: string, options: { timeoutMs: number; signal: AbortSignal }): Promise<void> {
    this.ws.send(line);
    const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
    let onAbort!: () => void;
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () =>
        reject(
          options.signal.aborted
            ? options.signal.reason
            : new ProviderError('The Proxmox VE console did not answer its ticket in time'),
        );
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const refused = this.closed.then(({ reason }) => {
      throw new ProviderError(`Proxmox VE refused the console (its ticket or VM.Console): ${reason}`);
    });
    try {
      await Promise.race([this.greeted, aborted, refused]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    this.ping = setInterval(() => this.send('2'), PING_MS);
  }

  write(data: Buffer): void {
    for (let offset = 0; offset < data.length; offset += MAX_INPUT_BYTES) {
      const chunk = data.subarray(offset, offset + MAX_INPUT_BYTES);
      this.send(Buffer.concat([Buffer.from(`0:${chunk.length}:`), chunk]));
    }
  }

  resize(size: TerminalSize): Promise<void> {
    return new Promise((resolve) => this.send(`1:${size.cols}:${size.rows}:`, () => resolve()));
  }

  onData(listener: (chunk: Buffer) => void): void {
    this.listeners.push(listener);
    const queued = this.queued.splice(0);
    for (const chunk of queued) listener(chunk);
  }

  /**
   * Closes the WebSocket; termproxy then exits. The shell itself lives on in the node's `dtach`
   * session of the container console (as when the PVE web console is closed).
   */
  close(): void {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.ping);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close();
    else this.ws.terminate();
  }

  private receive(data: Buffer): void {
    if (this.greeting) {
      this.greeting = Buffer.concat([this.greeting, data]);
      if (this.greeting.length < 2) return;
      if (this.greeting.subarray(0, 2).toString('latin1') !== 'OK') return this.ws.terminate();
      data = this.greeting.subarray(2);
      this.greeting = undefined;
      this.greet();
      if (!data.length) return;
    }
    if (!this.listeners.length) this.queued.push(data);
    for (const listener of this.listeners) listener(data);
  }

  private send(data: string | Buffer, sent?: () => void): void {
    if (this.ws.readyState !== WebSocket.OPEN) return sent?.();
    this.ws.send(data, () => sent?.());
  }

  /** pveproxy drops the connection without a close frame both when the shell exits and otherwise. */
  private closeReason(): string {
    if (this.closing) return 'the session was closed';
    if (this.failure) return `the connection to the node failed: ${this.failure.message}`;
    return 'the shell exited or the node ended the console';
  }
}
