import type { TerminalSession, TerminalSize } from '../terminal.ts';

const PROMPT = '/ # ';

/** `$((…))` arithmetic as sh does it on integers: + - * / % and parentheses. */
function shellArithmetic(expression: string): number | undefined {
  const tokens = expression.match(/\d+|[-+*/%()]|\S/g) ?? [];
  let at = 0;
  const primary = (): number => {
    const token = tokens[at++];
    if (token === '(') {
      const value = sum();
      if (tokens[at++] !== ')') throw new Error('missing )');
      return value;
    }
    if (token === '-') return -primary();
    if (token === undefined || !/^\d+$/.test(token)) throw new Error('syntax error');
    return Number(token);
  };
  const product = (): number => {
    let value = primary();
    while (tokens[at] === '*' || tokens[at] === '/' || tokens[at] === '%') {
      const op = tokens[at++];
      const right = primary();
      if (op !== '*' && right === 0) throw new Error('divide by zero');
      value = op === '*' ? value * right : op === '/' ? Math.trunc(value / right) : value % right;
    }
    return value;
  };
  const sum = (): number => {
    let value = product();
    while (tokens[at] === '+' || tokens[at] === '-')
      value = tokens[at++] === '+' ? value + product() : value - product();
    return value;
  };
  try {
    const value = sum();
    return at === tokens.length ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The dummy node's interactive shell: a prompt, line editing (backspace, Ctrl-C, Ctrl-D), and the few
 * commands a terminal test types: `echo` (with `$((…))`), `stty size`, `exit`.
 */
export class DummyTerminal implements TerminalSession {
  private readonly listeners: Array<(chunk: Buffer) => void> = [];
  /** Output before the first listener (the prompt): kept for it. */
  private backlog: Buffer[] = [];
  private line = '';
  private ended = false;
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
    for (const char of data.toString('utf8')) {
      if (this.ended) return;
      if (char === '\r' || char === '\n') this.enter();
      else if (char === '\x7f' || char === '\b') {
        if (this.line) {
          this.line = [...this.line].slice(0, -1).join('');
          this.emit('\b \b');
        }
      } else if (char === '\x03') {
        this.line = '';
        this.emit(`^C\r\n${PROMPT}`);
      } else if (char === '\x04') {
        if (!this.line) this.end('the shell exited');
      } else if (char >= ' ') {
        this.line += char;
        this.emit(char);
      }
    }
  }

  resize(size: TerminalSize) {
    this.size = size;
    return Promise.resolve();
  }

  close() {
    this.end('the session was closed');
  }

  private enter() {
    const line = this.line.trim();
    this.line = '';
    this.emit('\r\n');
    if (line === 'exit') return this.end('the shell exited');
    const output = this.run(line);
    this.emit(`${output === undefined ? '' : `${output}\r\n`}${PROMPT}`);
  }

  private run(line: string): string | undefined {
    if (!line) return undefined;
    const [command = ''] = line.split(/\s+/);
    if (command === 'echo') return this.expand(line.slice(4).trim());
    if (line === 'stty size') return `${this.size.rows} ${this.size.cols}`;
    return `sh: ${command}: not found`;
  }

  private expand(words: string): string {
    return words
      .replace(/\$\(\((.*?)\)\)/g, (whole, expression: string) => {
        const value = shellArithmetic(expression);
        return value === undefined ? whole : String(value);
      })
      .replace(/^(['"])(.*)\1$/, '$2');
  }

  private end(reason: string) {
    if (this.ended) return;
    this.ended = true;
    this.finish({ reason });
  }

  private emit(text: string) {
    const chunk = Buffer.from(text, 'utf8');
    if (!this.listeners.length) this.backlog.push(chunk);
    for (const listener of this.listeners) listener(chunk);
  }
}
