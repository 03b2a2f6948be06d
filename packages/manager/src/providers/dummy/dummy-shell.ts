import { evaluateArithmetic } from '@app/server-kit/shell';
import { pause } from '../pause.ts';
import type { TerminalSize } from '../terminal.ts';

const SHELLS = new Set(['sh', 'bash', '/bin/sh', '/bin/bash']);

/** Where a simulated command prints, what stops it, and the size of the terminal it runs in, if any. */
export interface ShellIo {
  print: (line: string) => Promise<void> | void;
  signal: AbortSignal;
  size?: TerminalSize;
}

/**
 * The simulated node's shell, for exec and the terminal alike: statements separated by `;` or newlines,
 * each a program with its arguments, where a program is `echo`, `true`, `false`, `sleep N`, `exit N` or
 * `stty size` — enough to stand in for a container in tests and the demo. Words may be quoted, escaped
 * and hold `$((…))`.
 */
export async function runScript(script: string, io: ShellIo): Promise<{ status: number; exit?: boolean }> {
  let outcome: { status: number; exit?: boolean } = { status: 0 };
  for (const words of parse(script)) {
    outcome = await run(words, io);
    if (outcome.exit) break;
  }
  return outcome;
}

/** Exec's command: `sh -c 'a; b'` or one program with its arguments. Returns the exit code. */
export async function runSimulated(command: string[], io: ShellIo): Promise<number> {
  const [program = '', flag, script] = command;
  const shell = SHELLS.has(program) && flag === '-c';
  return (shell ? await runScript(script ?? '', io) : await run(command, io)).status;
}

async function run(
  [name = '', ...args]: string[],
  { print, signal, size }: ShellIo,
): Promise<{ status: number; exit?: boolean }> {
  switch (name) {
    case 'echo':
      await print(args.join(' '));
      return { status: 0 };
    case 'true':
      return { status: 0 };
    case 'false':
      return { status: 1 };
    case 'sleep':
      await pause(Number(args[0] ?? 0) * 1000, signal);
      return { status: 0 };
    case 'exit':
      return { status: Number(args[0] ?? 0) & 255, exit: true };
    case 'stty':
      if (!size) {
        await print("stty: 'standard input': Inappropriate ioctl for device");
        return { status: 1 };
      }
      await print(`${size.rows} ${size.cols}`);
      return { status: 0 };
    default:
      await print(`sh: 1: ${name}: not found`);
      return { status: 127 };
  }
}

/** Where the `))` closing the `$((` before `from` is (parentheses inside counted), or -1. */
function arithmeticEnd(script: string, from: number): number {
  let depth = 0;
  for (let index = from; index < script.length; index++) {
    if (script[index] === '(') depth++;
    else if (script[index] === ')') {
      if (depth === 0) return script[index + 1] === ')' ? index : -1;
      depth--;
    }
  }
  return -1;
}

/** `$((expression))`'s value; the text as written when it is no sound integer expression. */
function arithmetic(expression: string): string {
  try {
    return evaluateArithmetic(expression).toString();
  } catch {
    return `$((${expression}))`;
  }
}

/**
 * Splits a script into statements (at `;` and newlines) of words, honouring quotes and backslashes and
 * expanding `$((…))` outside single quotes.
 */
function parse(script: string): string[][] {
  const statements: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  for (let index = 0; index < script.length; index++) {
    const char = script[index]!;
    const quoted = quote !== undefined;
    const end = quote !== "'" && script.startsWith('$((', index) ? arithmeticEnd(script, index + 3) : -1;
    if (end >= 0) {
      word = (word ?? '') + arithmetic(script.slice(index + 3, end));
      index = end + 1;
    } else if (char === quote) quote = undefined;
    else if (quote === "'") word = (word ?? '') + char;
    else if (char === '\\') word = (word ?? '') + (script[++index] ?? '');
    else if (!quoted && (char === '"' || char === "'")) [quote, word] = [char, word ?? ''];
    else if (!quoted && (char === ';' || char === '\n')) {
      endWord();
      if (words.length) statements.push(words);
      words = [];
    } else if (!quoted && (char === ' ' || char === '\t')) endWord();
    else word = (word ?? '') + char;
  }
  endWord();
  if (words.length) statements.push(words);
  return statements;
}
