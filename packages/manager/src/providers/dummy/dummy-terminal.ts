import { LineEditor } from '@app/server-kit/shell';
import type { TerminalSession, TerminalSize } from '../terminal.ts';
import { runScript } from './dummy-shell.ts';

const PROMPT = '/ # ';

/**
 * The dummy node's interactive shell: a prompt and line editing (backspace, Ctrl-C, Ctrl-D) in front of
 * the simulated shell that exec runs (`runScript`). Keys typed while a command runs wait for it.
 */
export class DummyTerminal implements TerminalSession {
  private readonly listeners: Array<(chunk: Buffer) => void> = [];
  /** Output before the first listener (the prompt): kept for it. */
  private backlog: Buffer[] = [];
  private readonly editor = new LineEditor((text) => this.emit(text));
  private ended = false;
  /** The keys typed so far, handled in order. */
  private typing = Promise.resolve();
  /** Stops a running command when the session ends. */
  private readonly stop = new AbortController();
  private finish!: (value: { reason: string }) => void;
  readonly closed = new Promise<{ reason: string }>((resolve) => (this.finish = resolve));

  constructor(private size: TerminalSize) {
    this.emit(PROMPT);
  }

  onData(listener: (chunk: Buffer) => void) {
    this.listeners.push(listener);
    for (const chunk of this.backlog) listener(chunk);
    this.backlog = [];
  }

  write(data: Buffer) {
    this.typing = this.typing.then(() => this.type(data.toString('utf8')));
  }

  private async type(text: string) {
    for (const char of text) {
      if (this.ended) return;
      const action = this.editor.key(char);
      if (action === 'interrupt') this.emit(PROMPT);
      else if (action === 'end-of-input') this.end('the shell exited');
      else if (action) await this.enter(action.enter);
    }
  }

  resize(size: TerminalSize) {
    this.size = size;
    return Promise.resolve();
  }

  close() {
    this.end('the session was closed');
  }

  private async enter(line: string) {
    const io = {
      print: (text: string) => this.emit(`${text}\r\n`),
      signal: this.stop.signal,
      size: this.size,
    };
    // Rejects only when the session ended under a running command.
    const outcome = await runScript(line, io).catch(() => undefined);
    if (outcome?.exit) this.end('the shell exited');
    else if (!this.ended) this.emit(PROMPT);
  }

  private end(reason: string) {
    if (this.ended) return;
    this.ended = true;
    this.stop.abort(new Error(reason));
    this.finish({ reason });
  }

  private emit(text: string) {
    const chunk = Buffer.from(text, 'utf8');
    if (!this.listeners.length) this.backlog.push(chunk);
    for (const listener of this.listeners) listener(chunk);
  }
}
