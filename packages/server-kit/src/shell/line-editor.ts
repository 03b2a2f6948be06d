/** What a typed key asks of the shell behind the line editor. */
export type LineAction = { enter: string } | 'interrupt' | 'end-of-input';

/**
 * The line discipline of a terminal in canonical mode, as much as the simulated shells need: typed
 * characters are echoed and collected, backspace erases one, Enter hands the line over, ^C drops it
 * and ^D on an empty line ends the input. The shell writes its prompt after an action.
 */
export class LineEditor {
  private line = '';

  constructor(private readonly echo: (text: string) => void) {}

  /** Takes one typed character; what the shell must do next, if anything. */
  key(char: string): LineAction | undefined {
    if (char === '\r' || char === '\n') {
      const line = this.line;
      this.line = '';
      this.echo('\r\n');
      return { enter: line };
    }
    if (char === '\x7f' || char === '\b') {
      if (this.line) {
        this.line = [...this.line].slice(0, -1).join('');
        this.echo('\b \b');
      }
    } else if (char === '\x03') {
      this.line = '';
      this.echo('^C\r\n');
      return 'interrupt';
    } else if (char === '\x04') {
      if (!this.line) return 'end-of-input';
    } else if (char >= ' ') {
      this.line += char;
      this.echo(char);
    }
    return undefined;
  }
}
