import { evaluateArithmetic, LineEditor } from '@app/server-kit/shell';

export interface ShellSize {
  cols: number;
  rows: number;
}

/**
 * A root shell behind a pseudo-terminal, as far as tests type into one: the line discipline
 * (`LineEditor`) echoes and edits, and the shell knows `echo` (with `$((…))`), `stty size`, `hostname`
 * and `exit`. Output goes to `output`; `ended` is called once when the shell exits.
 */
export class SimulatedShell {
  private readonly editor = new LineEditor((text) => this.write(text));
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
    const action = this.editor.key(char);
    if (action === 'interrupt') this.write(this.prompt());
    else if (action === 'end-of-input') this.exit('exit\r\n');
    else if (action) this.run(action.enter.trim());
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
