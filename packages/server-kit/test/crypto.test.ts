import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadSecretKey, SecretBox } from '../src/index.ts';

describe('secrets at rest', () => {
  it('seals and opens, with a fresh nonce each time, and refuses a tampered or foreign value', () => {
    const box = new SecretBox('key-one');
    const sealed = box.seal('token=abc');
    expect(sealed).not.toContain('abc');
    expect(box.seal('token=abc')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('token=abc');
    const parts = sealed.split(':');
    parts[3] = Buffer.from('token=abd').toString('base64');
    expect(() => box.open(parts.join(':'))).toThrow();
    expect(() => new SecretBox('key-two').open(sealed)).toThrow();
  });

  it('creates the key file once, private to its owner, and prefers SECRET_KEY', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-'));
    const first = loadSecretKey(undefined, dir);
    expect(loadSecretKey(undefined, dir)).toBe(first);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8').trim()).toBe(first);
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(loadSecretKey('from-env', dir)).toBe('from-env');
  });

  it('gives processes starting together on one data directory the same complete key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-'));
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const crypto = fileURLToPath(new URL('../src/crypto.ts', import.meta.url));
    const script = `const { loadSecretKey } = await import(${JSON.stringify(crypto)}); console.log(loadSecretKey(undefined, ${JSON.stringify(dir)}));`;
    const keys = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const { stdout } = await promisify(execFile)(process.execPath, [
          '--import',
          tsx,
          '--input-type=module',
          '-e',
          script,
        ]);
        return stdout.trim();
      }),
    );
    expect(keys[0]).toMatch(/^\S{20,}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(readdirSync(dir)).toEqual(['secret.key']);
  });
});
