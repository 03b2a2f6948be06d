import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, type RunningService } from '@app/server-kit/testing';

const MAIN = join(import.meta.dirname, '../src/main.ts');

/** `src/main.ts` as its own process (`npm start -w packages/manager`), with a fresh DATA_DIR (removed at exit). */
export function runManager(env: Record<string, string>, args: string[] = []): RunningService {
  const dataDir = mkdtempSync(join(tmpdir(), 'mgr-'));
  const proc = startProcess(MAIN, args, { DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env });
  void proc.exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  return proc;
}
