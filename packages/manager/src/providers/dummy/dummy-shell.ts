import { pause } from '../pause.ts';

const SHELLS = new Set(['sh', 'bash', '/bin/sh', '/bin/bash']);

/**
 * The simulated node's shell for exec: `sh -c 'a; b'` or one program with its arguments, where a
 * program is `echo`, `true`, `false`, `sleep N` or `exit N` — enough to stand in for a container in
 * tests and the demo. Returns the exit code; every printed line goes to `print`.
 */
export async function runSimulated(
  command: string[],
  print: (line: string) => Promise<void>,
  signal: AbortSignal,
): Promise<number> {
  const [program = '', flag, script] = command;
  const statements = SHELLS.has(program) && flag === '-c' ? parse(script ?? '') : [command];
  let status = 0;
  for (const words of statements) {
    const outcome = await run(words, print, signal);
    status = outcome.status;
    if (outcome.exit) break;
  }
  return status;
}

async function run(
  [name = '', ...args]: string[],
  print: (line: string) => Promise<void>,
  signal: AbortSignal,
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
    default:
      await print(`sh: 1: ${name}: not found`);
      return { status: 127 };
  }
}

/** Splits a script into statements (at `;` and newlines) of words, honouring quotes and backslashes. */
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
    if (char === quote) quote = undefined;
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
