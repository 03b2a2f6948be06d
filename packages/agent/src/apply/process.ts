import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** Runs a program with arguments (never through a shell); rejects with its output on failure. */
export function run(file: string, args: string[], timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`${file} ${args.join(' ')}: ${(stderr || stdout || error.message).trim()}`));
      else resolve(`${stdout}${stderr}`.trim());
    });
  });
}

/** True when systemd runs the unit (so reloads go through systemctl). */
export async function systemdActive(unit: string): Promise<boolean> {
  try {
    await run('systemctl', ['is-active', '--quiet', unit], 5_000);
    return true;
  } catch {
    return false;
  }
}

export async function pidFrom(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.trim(), 10);
  if (!pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

export async function signal(pidFile: string, name: NodeJS.Signals) {
  const pid = await pidFrom(pidFile);
  if (!pid) throw new Error(`no running process in ${pidFile}`);
  process.kill(pid, name);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
