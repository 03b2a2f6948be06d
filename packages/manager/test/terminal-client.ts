import { WebSocket } from 'ws';
import type { TestClient } from '@app/server-kit/testing';
import { SESSION_COOKIE } from '../src/auth/sessions.ts';

export interface TerminalClose {
  code: number;
  /** The reason of the server's `{type:'exit'}` message, if it sent one. */
  exitReason: string | undefined;
}

/** A browser terminal as a test drives it: what the shell wrote so far, typing, resizing, the close. */
export class TerminalClient {
  output = '';
  private exitReason: string | undefined;
  readonly closed: Promise<TerminalClose>;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer, isBinary) => {
      if (isBinary) this.output += data.toString('utf8');
      else {
        const message = JSON.parse(data.toString('utf8')) as { type: string; reason?: string };
        if (message.type === 'exit') this.exitReason = message.reason;
      }
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code) => resolve({ code, exitReason: this.exitReason })),
    );
  }

  type(text: string) {
    this.socket.send(Buffer.from(text, 'utf8'), { binary: true });
  }

  resize(cols: number, rows: number) {
    this.socket.send(JSON.stringify({ type: 'resize', cols, rows }));
  }

  /** Waits until the output, from `from` on, matches; returns the match. */
  async waitFor(pattern: RegExp, timeoutMs = 10_000, from = 0): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = this.output.slice(from).match(pattern);
      if (match) return match;
      if (Date.now() > deadline)
        throw new Error(`no ${pattern} in terminal output: ${JSON.stringify(this.output.slice(-500))}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Types a command and waits for a line of its output matching `pattern` after it. */
  async run(command: string, pattern: RegExp, timeoutMs?: number) {
    const from = this.output.length;
    this.type(`${command}\r`);
    return this.waitFor(pattern, timeoutMs, from);
  }

  /** `stty size` as the shell answers it (`rows cols`). */
  async sttySize(): Promise<string> {
    return (await this.run('stty size', /\r\n(\d+ \d+)\r\n/))[1]!;
  }

  /**
   * Resizes, then asks `stty size` until it shows `rows cols` (the node may apply the resize after the
   * shell answered) or 10 s passed; the last answer.
   */
  async resizeAndAsk(cols: number, rows: number): Promise<string> {
    this.resize(cols, rows);
    const deadline = Date.now() + 10_000;
    let size = '';
    while (size !== `${rows} ${cols}` && Date.now() < deadline) size = await this.sttySize();
    return size;
  }
}

export interface TerminalAuth {
  /** A signed-in test client (its session cookie), or a Bearer API key. */
  client?: TestClient;
  key?: string;
  /** The Origin header; for a cookie defaults to the manager's own. */
  origin?: string | null;
}

/**
 * Opens `GET …/terminal` on the manager at `baseUrl`; resolves with the terminal once upgraded, or with
 * the HTTP status when the manager refused before the upgrade.
 */
export function openTerminal(
  baseUrl: string,
  path: string,
  auth: TerminalAuth,
): Promise<{ terminal: TerminalClient } | { status: number; body: string; connection: string | undefined }> {
  const headers: Record<string, string> = {};
  const session = auth.client?.cookie(SESSION_COOKIE);
  if (session) headers.cookie = `${SESSION_COOKIE}=${session}`;
  if (auth.key) headers.authorization = `Bearer ${auth.key}`;
  const origin = auth.origin === undefined ? (auth.client ? baseUrl : null) : auth.origin;
  if (origin) headers.origin = origin;
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/v1${path}`, { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ terminal: new TerminalClient(socket) }));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection }),
      );
    });
    socket.once('error', reject);
  });
}

/** Opens a terminal that must be accepted. */
export async function acceptedTerminal(baseUrl: string, path: string, auth: TerminalAuth) {
  const opened = await openTerminal(baseUrl, path, auth);
  if (!('terminal' in opened)) throw new Error(`terminal refused: ${opened.status} ${opened.body}`);
  return opened.terminal;
}
