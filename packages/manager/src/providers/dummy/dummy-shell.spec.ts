import { describe, expect, it } from 'vitest';
import { runSimulated } from './dummy-shell.ts';

const run = async (command: string[]) => {
  const printed: string[] = [];
  const exitCode = await runSimulated(command, {
    print: (line) => void printed.push(line),
    signal: new AbortController().signal,
  });
  return { printed, exitCode };
};

describe('the dummy node’s simulated shell', () => {
  it('runs statements in order, with quotes and backslashes read as sh reads them', async () => {
    expect(await run(['sh', '-c', `echo 'a  b' "c;d" e\\ f; echo two\necho three`])).toEqual({
      printed: ['a  b c;d e f', 'two', 'three'],
      exitCode: 0,
    });
  });

  it('stops at exit with its code; the last statement’s status otherwise', async () => {
    expect(await run(['sh', '-c', 'echo before; exit 3; echo after'])).toEqual({
      printed: ['before'],
      exitCode: 3,
    });
    expect(await run(['sh', '-c', 'true; false'])).toEqual({ printed: [], exitCode: 1 });
    expect(await run(['nosuch', 'x'])).toEqual({ printed: ['sh: 1: nosuch: not found'], exitCode: 127 });
    expect(await run(['echo', 'plain', 'argv'])).toEqual({ printed: ['plain argv'], exitCode: 0 });
  });

  it('expands $((…)) outside single quotes, and has no terminal size to tell', async () => {
    expect(await run(['sh', '-c', `echo $(( (1+2) * 3 )) "x$((2*(3+4)))" '$((1+1))'; stty size`])).toEqual({
      printed: ['9 x14 $((1+1))', "stty: 'standard input': Inappropriate ioctl for device"],
      exitCode: 1,
    });
  });

  it('sleeps until the signal ends it', async () => {
    const controller = new AbortController();
    const running = runSimulated(['sleep', '30'], { print: () => undefined, signal: controller.signal });
    controller.abort(new Error('stopped'));
    await expect(running).rejects.toThrow('stopped');
  });
});
