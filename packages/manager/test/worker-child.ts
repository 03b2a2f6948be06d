import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestManager } from './helpers.ts';

const CHILD = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));

/**
 * A manager process with role `worker` on the test manager's database (short leases), started from
 * fixtures/crash-worker.ts; resolves once it runs. `env` adds settings (e.g. DUMMY_STEP_MS).
 */
export function startWorkerChild(test: TestManager, env: Record<string, string> = {}): Promise<ChildProcess> {
  const config = test.config;
  const proc = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      DATA_DIR: config.dataDir,
      MANAGER_DATABASE_URL: config.databaseUrl ?? '',
      TEST_SCHEMA: test.schema ?? '',
      LOG_LEVEL: 'silent',
      JOB_LEASE_S: '1',
      JOB_HEARTBEAT_MS: '200',
      JOB_POLL_MS: '100',
      JOB_CONCURRENCY: '2',
      REGISTRY_MIRROR: 'http://127.0.0.1:9',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().startsWith('ready')) resolve(proc);
    });
    proc.on('exit', (code) => reject(new Error(`worker child exited early (${code})`)));
  });
}

/** Kills a child with SIGKILL (no shutdown: its jobs stay `running` with a lease that expires). */
export async function killChild(proc: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}
