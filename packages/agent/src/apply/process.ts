import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

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

/** The main process systemd tracks for an active unit. */
export async function mainPid(unit: string): Promise<number | undefined> {
  return Number(await run('systemctl', ['show', '-p', 'MainPID', '--value', unit], 5_000)) || undefined;
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

/** The processes whose parent is `pid`, from /proc. */
export async function childrenOf(pid: number): Promise<Set<number>> {
  const entries = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const parents = await Promise.all(
    entries.map(async (entry) => {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      // "pid (command) state ppid …", where the command may hold spaces and parentheses.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    }),
  );
  return new Set(entries.filter((_, index) => parents[index] === pid).map(Number));
}

export async function signal(pidFile: string, name: NodeJS.Signals) {
  const pid = await pidFrom(pidFile);
  if (!pid) throw new Error(`no running process in ${pidFile}`);
  process.kill(pid, name);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
