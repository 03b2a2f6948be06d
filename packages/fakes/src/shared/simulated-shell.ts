import { evaluateArithmetic } from '@app/server-kit/shell-arithmetic';

export interface ShellSize {
  cols: number;
  rows: number;
}

/**
 * A root shell behind a pseudo-terminal, as far as tests type into one: the line discipline echoes
 * and edits (backspace, ^C, ^D), and the shell knows `echo` (with `$((…))`), `stty size`, `hostname`
 * and `exit`. Output goes to `output`; `ended` is called once when the shell exits.
 */
export class SimulatedShell {
  private line = '';
  private done = false;
  /** What the shell wrote while handling one input, sent in one piece. */
  private pending = '';

  constructor(
    private readonly hostname: string,
    private size: ShellSize,
    private readonly output: (chunk: Buffer) => void,
    private readonly ended: () => void,
  ) {
    this.write(this.prompt());
    this.flush();
  }

  resize(size: ShellSize): void {
    this.size = size;
  }

  input(data: Buffer): void {
    for (const char of data.toString('utf8')) {
      if (this.done) break;
      this.key(char);
    }
    this.flush();
  }

  private key(char: string): void {
    if (char === '\r' || char === '\n') {
      this.write('\r\n');
      const line = this.line;
      this.line = '';
      this.run(line.trim());
    } else if (char === '\x7f' || char === '\b') {
      if (!this.line) return;
      this.line = [...this.line].slice(0, -1).join('');
      this.write('\b \b');
    } else if (char === '\x03') {
      this.line = '';
      this.write(`^C\r\n${this.prompt()}`);
    } else if (char === '\x04') {
      if (!this.line) this.exit('exit\r\n');
    } else if (char >= ' ') {
      this.line += char;
      this.write(char);
    }
  }

  private run(line: string): void {
    const [command = '', ...args] = line.split(/\s+/);
    if (command === 'exit') return this.exit('');
    if (command === 'echo') this.print(this.expand(args.join(' ')));
    else if (line === 'stty size') this.print(`${this.size.rows} ${this.size.cols}`);
    else if (command === 'hostname') this.print(this.hostname);
    else if (command) this.print(`bash: ${command}: command not found`);
    this.write(this.prompt());
  }

  /** `$((…))` expansion and quote removal (no variables, no globbing). */
  private expand(text: string): string {
    const expanded = text.replace(/\$\(\((.*?)\)\)/g, (_match, expression: string) => {
      try {
        return evaluateArithmetic(expression).toString();
      } catch (error) {
        return `bash: ${expression}: ${(error as Error).message}`;
      }
    });
    return expanded.replace(/(["'])(.*?)\1/g, '$2');
  }

  private print(text: string): void {
    this.write(`${text}\r\n`);
  }

  private exit(echo: string): void {
    this.done = true;
    this.write(echo);
    this.flush();
    this.ended();
  }

  private prompt(): string {
    return `root@${this.hostname}:~# `;
  }

  private write(text: string): void {
    this.pending += text;
  }

  private flush(): void {
    if (this.pending) this.output(Buffer.from(this.pending, 'utf8'));
    this.pending = '';
  }
}
