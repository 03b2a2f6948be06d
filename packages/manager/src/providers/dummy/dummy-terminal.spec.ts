import { describe, expect, it, vi } from 'vitest';
import { DummyTerminal } from './dummy-terminal.ts';

/** Types `input` into a fresh shell of `cols`×`rows`; all it wrote (prompt first). */
function session(input: string, size = { cols: 80, rows: 24 }) {
  const shell = new DummyTerminal(size);
  let output = '';
  shell.onData((chunk) => (output += chunk.toString('utf8')));
  shell.write(Buffer.from(input));
  return { shell, output: () => output };
}

/** Waits until the shell has written `expected` in all. */
const shows = (output: () => string, expected: string) => vi.waitFor(() => expect(output()).toBe(expected));

describe('DummyTerminal', () => {
  it('echoes keystrokes and answers echo with sh arithmetic', async () => {
    const { output } = session('echo $((6*7)) $(( (1+2) * -3 % 4 )) "$((2*(3+4)))" $((7/0))\r');
    await shows(
      output,
      '/ # echo $((6*7)) $(( (1+2) * -3 % 4 )) "$((2*(3+4)))" $((7/0))\r\n42 -1 14 $((7/0))\r\n/ # ',
    );
  });

  it('reports its size as rows and columns, after a resize too', async () => {
    const { shell, output } = session('stty size\r', { cols: 100, rows: 30 });
    await vi.waitFor(() => expect(output()).toContain('\r\n30 100\r\n'));
    await shell.resize({ cols: 132, rows: 43 });
    shell.write(Buffer.from('stty size\r'));
    await vi.waitFor(() => expect(output()).toContain('\r\n43 132\r\n'));
  });

  it('edits the line (backspace, Ctrl-C) and says when a command does not exist', async () => {
    const { output } = session('lx\x7fs\r' + 'abc\x03');
    await shows(output, '/ # lx\b \bs\r\nsh: 1: ls: not found\r\n/ # abc^C\r\n/ # ');
  });

  it('runs the keys typed during a command after it, and stops a running command when closed', async () => {
    const { shell, output } = session('sleep 0.05; echo slept\r');
    shell.write(Buffer.from('echo next\r'));
    await shows(output, '/ # sleep 0.05; echo slept\r\nslept\r\n/ # echo next\r\nnext\r\n/ # ');
    shell.write(Buffer.from('sleep 30\r'));
    shell.close();
    expect(await shell.closed).toEqual({ reason: 'the session was closed' });
  });

  it('ends on exit and on Ctrl-D at an empty line', async () => {
    expect(await session('exit\r').shell.closed).toEqual({ reason: 'the shell exited' });
    expect(await session('\x04').shell.closed).toEqual({ reason: 'the shell exited' });
    const closed = session('');
    closed.shell.close();
    expect(await closed.shell.closed).toEqual({ reason: 'the session was closed' });
  });
});
