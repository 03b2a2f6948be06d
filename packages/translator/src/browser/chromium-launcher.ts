import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The account Chromium runs as when the translator runs as root (Chromium's sandbox refuses root, and a
 * browser showing users' pages must not hold root's rights). Its own account, not `nobody`: other
 * daemons run as `nobody`, and processes of one user can trace each other.
 */
export const BROWSER_USER = 'translator-browser';

interface Account {
  uid: number;
  gid: number;
}

async function account(name: string): Promise<Account | undefined> {
  const found = await run('getent', ['passwd', name]).catch(() => undefined);
  const fields = found?.stdout.trim().split(':');
  if (!fields || fields.length < 4) return undefined;
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/** The browser's account, created on first use (a system account without a home or a shell). */
async function browserAccount(): Promise<Account> {
  for (let attempt = 1; ; attempt++) {
    const found = await account(BROWSER_USER);
    if (found) return found;
    const created = await run('useradd', [
      ...['--system', '--user-group', '--no-create-home'],
      ...['--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', BROWSER_USER],
    ]).catch((error: unknown) => error as Error);
    if (!(created instanceof Error)) continue;
    // Another process may be creating it at the same moment (useradd holds a lock on the files).
    if (attempt >= 5) throw new Error(`could not create the user ${BROWSER_USER}: ${created.message}`);
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
}

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The script playwright starts in Chromium's place. Its HOME is the profile playwright made (nothing of
 * the service's home), and when the translator is root it gives the profile to the browser's account
 * and starts Chromium as that account through setpriv: no supplementary groups, no capabilities, no new
 * privileges — the descriptors of playwright's pipe pass through `exec`.
 */
function script(chromiumPath: string, as: Account | undefined): string {
  const lines = [
    '#!/bin/sh',
    'set -e',
    'profile=',
    'for arg do case "$arg" in --user-data-dir=*) profile="${arg#--user-data-dir=}" ;; esac; done',
    '[ -n "$profile" ] || { echo "chromium launcher: no --user-data-dir" >&2; exit 64; }',
    'export HOME="$profile"',
  ];
  if (!as) return [...lines, `exec ${quote(chromiumPath)} "$@"`, ''].join('\n');
  return [
    ...lines,
    `chown -R ${as.uid}:${as.gid} "$profile"`,
    `exec setpriv --reuid=${as.uid} --regid=${as.gid} --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs -- ${quote(chromiumPath)} "$@"`,
    '',
  ].join('\n');
}

/**
 * An executable that starts Chromium as an unprivileged user (this process's own, or the browser's
 * account when this process is root), for playwright's `executablePath`. `remove` deletes it (it is not
 * needed once the browser started).
 */
export async function chromiumLauncher(
  chromiumPath: string,
): Promise<{ path: string; remove(): Promise<void> }> {
  const as = process.getuid?.() === 0 ? await browserAccount() : undefined;
  const dir = await mkdtemp(join(tmpdir(), 'translator-chromium-'));
  const path = join(dir, 'chromium');
  await writeFile(path, script(chromiumPath, as), { mode: 0o700 });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
