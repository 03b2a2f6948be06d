import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = join(import.meta.dirname, '../src/main.ts');

export interface ManagerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Everything the process wrote so far (standard output and error). */
  output(): string;
  /** Resolves once `text` appears in the output; rejects when the process exits first or after `ms`. */
  waitFor(text: string, ms?: number): Promise<void>;
}

/** `src/main.ts` as its own process (`npm start -w packages/manager`), with a fresh DATA_DIR (removed at exit). */
export function runManager(env: Record<string, string>, args: string[] = []): ManagerProcess {
  const dataDir = mkdtempSync(join(tmpdir(), 'mgr-'));
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  let code: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (exitCode) => resolve((code = exitCode))),
  );
  const waitFor = async (text: string, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!output.includes(text)) {
      if (code !== undefined) throw new Error(`manager exited (${code}) before "${text}":\n${output}`);
      if (Date.now() > deadline) throw new Error(`no "${text}" within ${ms} ms:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { child, exited, output: () => output, waitFor };
}
