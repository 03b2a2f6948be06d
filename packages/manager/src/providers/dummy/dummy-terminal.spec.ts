import { describe, expect, it } from 'vitest';
import { DummyTerminal } from './dummy-terminal.ts';

/** Types `input` into a fresh shell of `cols`×`rows`; all it wrote (prompt first). */
function session(input: string, size = { cols: 80, rows: 24 }) {
  const shell = new DummyTerminal(size);
  let output = '';
  shell.onData((chunk) => (output += chunk.toString('utf8')));
  shell.write(Buffer.from(input));
  return { shell, output: () => output };
}

describe('DummyTerminal', () => {
  it('echoes keystrokes and answers echo with sh arithmetic', () => {
    const { output } = session('echo $((6*7)) $(( (1+2) * -3 % 4 )) $((7/0))\r');
    expect(output()).toBe('/ # echo $((6*7)) $(( (1+2) * -3 % 4 )) $((7/0))\r\n42 -1 $((7/0))\r\n/ # ');
  });

  it('reports its size as rows and columns, after a resize too', async () => {
    const { shell, output } = session('stty size\r', { cols: 100, rows: 30 });
    await shell.resize({ cols: 132, rows: 43 });
    shell.write(Buffer.from('stty size\r'));
    expect(output()).toContain('\r\n30 100\r\n');
    expect(output()).toContain('\r\n43 132\r\n');
  });

  it('edits the line (backspace, Ctrl-C) and says when a command does not exist', () => {
    const { output } = session('lx\x7fs\r' + 'abc\x03');
    expect(output()).toBe('/ # lx\b \bs\r\nsh: ls: not found\r\n/ # abc^C\r\n/ # ');
  });

  it('ends on exit and on Ctrl-D at an empty line', async () => {
    expect(await session('exit\r').shell.closed).toEqual({ reason: 'the shell exited' });
    expect(await session('\x04').shell.closed).toEqual({ reason: 'the shell exited' });
    const closed = session('');
    closed.shell.close();
    expect(await closed.shell.closed).toEqual({ reason: 'the session was closed' });
  });
});
