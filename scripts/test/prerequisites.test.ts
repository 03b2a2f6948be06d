import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = new URL('../test-prerequisites.mjs', import.meta.url).pathname;

describe('npm test prerequisites', () => {
  it('stops at once with the exact apt-get command when a package is missing and it may not install', () => {
    // As a user who may not install packages (a copy they can read: the clone may be private to root),
    // with Chromium looked for where it is not.
    const dir = mkdtempSync(join(tmpdir(), 'prerequisites-'));
    try {
      chmodSync(dir, 0o755);
      copyFileSync(script, join(dir, 'check.mjs'));
      const result = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, join(dir, 'check.mjs')], {
        env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
        encoding: 'utf8',
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('missing: chromium');
      expect(result.stderr).toContain('apt-get install -y --no-install-recommends chromium');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('passes quietly when everything is there', () => {
    const result = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout + result.stderr).toBe('');
  });
});
