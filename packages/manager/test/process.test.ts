import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from './helpers.ts';

const MAIN = join(import.meta.dirname, '../src/main.ts');

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'mgr-')), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('manager process', { timeout: 60_000 }, () => {
  it('refuses to start with a bad setting and names the variable', async () => {
    const proc = run({ MANAGER_PORT: 'eighty' });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toContain('MANAGER_PORT: expected a whole number');
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const proc = run({ MANAGER_PORT: String(port), HOST: '127.0.0.1' });
    for (let i = 0; i < 100 && !proc.output().includes('manager ready'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(200);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('shutting down');
  });
});
