// Browser-test support shared by the Vite web clients: build dist/ once, only when it is out of date.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The shared web-kit is bundled into each client, so its sources count as theirs.
const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json', '../web-kit/src'];
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

function stale(packageDir: string): boolean {
  const built = join(packageDir, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((name) => newest(join(packageDir, name)) > builtAt);
}

/**
 * Builds the Vite client in `packageDir` when its dist/ is missing or older than its sources (skipped
 * when fresh). Test files run in parallel, so one builds under a lock directory while the others wait.
 */
export async function ensureViteBuild(packageDir: string, what: string): Promise<void> {
  const lock = join(tmpdir(), `${basename(packageDir)}-build.lock`);
  for (;;) {
    if (!stale(packageDir)) return;
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is building; a lock older than two minutes is left over from a crash.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) rmSync(lock, { force: true, recursive: true });
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      if (!stale(packageDir)) return;
      const vite = join(repoRoot, 'node_modules/vite/bin/vite.js');
      const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
        cwd: packageDir,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: 'production' },
      });
      if (result.status !== 0) throw new Error(`${what} build failed:\n${result.stdout}\n${result.stderr}`);
      return;
    } finally {
      rmSync(lock, { force: true, recursive: true });
    }
  }
}
