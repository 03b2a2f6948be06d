import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const tsx = createRequire(import.meta.url).resolve('tsx');
const cli = new URL('../src/cli.ts', import.meta.url).pathname;

/**
 * Runs the `site-agent` command (its sources) as a process of its own, configured by `env` alone as the
 * installed one is: its exit code and output once it has ended.
 */
export function runAgentCli(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, ['--conditions=source', '--import', tsx, cli, ...args], {
    env: { PATH: process.env.PATH, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}
