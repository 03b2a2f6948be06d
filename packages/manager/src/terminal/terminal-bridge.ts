import type { WebSocket } from 'ws';
import type { TerminalSession, TerminalSize } from '../providers/terminal.ts';
import { parseControl, TERMINAL_CLOSE } from './terminal-protocol.ts';

type CloseCode = (typeof TERMINAL_CLOSE)[keyof typeof TERMINAL_CLOSE];

const describeIdle = (ms: number) =>
  ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}` : `${Math.round(ms / 1000)} s`;

/**
 * Joins a browser's WebSocket to a shell: keystrokes and a resize sent before the shell is open are kept for it,
 * input resets the idle timer, and whichever side ends first ends the other with the reason.
 */
export class TerminalBridge {
  private session: TerminalSession | undefined;
  private pending: Buffer[] = [];
  private pendingSize: TerminalSize | undefined;
  private idle: NodeJS.Timeout | undefined;
  private ended = false;
  private finishEnded!: (reason: string) => void;
  /** Settles with the reason once the socket and the shell are both closed. */
  readonly done = new Promise<string>((resolve) => (this.finishEnded = resolve));

  constructor(
    private readonly socket: WebSocket,
    private readonly idleMs: number,
  ) {
    socket.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary));
    socket.on('close', () => this.end('The browser closed the terminal.', TERMINAL_CLOSE.exited));
    socket.on('error', () => this.end('The connection to the browser failed.', TERMINAL_CLOSE.exited));
    this.touch();
  }

  get open() {
    return !this.ended;
  }

  /** Hands the opened shell its queued input and starts carrying its output. */
  attach(session: TerminalSession) {
    if (this.ended) return session.close();
    this.session = session;
    session.onData((chunk) => {
      if (this.socket.readyState === this.socket.OPEN) this.socket.send(chunk, { binary: true });
    });
    void session.closed.then(({ reason }) => this.end(reason, TERMINAL_CLOSE.exited));
    for (const chunk of this.pending) session.write(chunk);
    this.pending = [];
    if (this.pendingSize) void session.resize(this.pendingSize).catch(() => undefined);
  }

  /** Ends the terminal: a line in the terminal for the user, `{type:'exit'}`, the close code. */
  end(reason: string, code: CloseCode) {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idle);
    this.session?.close();
    if (this.socket.readyState === this.socket.OPEN) {
      if (code !== TERMINAL_CLOSE.exited)
        this.socket.send(Buffer.from(`\r\n[${reason}]\r\n`), { binary: true });
      this.socket.send(JSON.stringify({ type: 'exit', reason }));
      this.socket.close(code, reason.slice(0, 120));
    }
    this.finishEnded(reason);
  }

  private receive(data: Buffer, isBinary: boolean) {
    if (this.ended) return;
    if (isBinary) {
      this.touch();
      if (this.session) this.session.write(data);
      else this.pending.push(data);
      return;
    }
    const message = parseControl(data.toString('utf8'));
    if (message?.type === 'ping') this.socket.send(JSON.stringify({ type: 'pong' }));
    else if (message?.type === 'resize') {
      this.touch();
      if (this.session) void this.session.resize(message.size).catch(() => undefined);
      else this.pendingSize = message.size;
    }
  }

  private touch() {
    clearTimeout(this.idle);
    this.idle = setTimeout(
      () => this.end(`Closed after ${describeIdle(this.idleMs)} without input.`, TERMINAL_CLOSE.idle),
      this.idleMs,
    );
  }
}
