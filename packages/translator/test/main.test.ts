import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Starts `src/main.ts` on SQLite in a fresh DATA_DIR; resolves once it prints its URL. */
function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'translator-main-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main], {
    env: {
      ...process.env,
      TEST_DATABASE_URL: '',
      DATA_DIR: dataDir,
      TRANSLATOR_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (part: Buffer) => {
      output += part.toString();
      const url = /Translator: (http:\/\/\S+)\/api/.exec(output)?.[1];
      if (url) resolve(url);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** Resolves with the first match of `pattern` in the output, waiting for more output as needed. */
  const waitFor = async (pattern: RegExp, timeoutMs = 10_000) => {
    for (const start = Date.now(); Date.now() - start < timeoutMs;) {
      const match = pattern.exec(output);
      if (match) return match;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no ${pattern} in: ${output}`);
  };
  return { child, ready, exited, waitFor, dataDir, output: () => output };
}

describe('src/main.ts', () => {
  it('creates the default project, prints its key outside production, and stops cleanly on SIGTERM', async () => {
    const run = start({ NODE_ENV: 'development' });
    const url = await run.ready;
    const key = (await run.waitFor(/API key: (\S{24})/))[1];
    expect(key).toHaveLength(24);
    const res = await fetch(`${url}/api/languages`, { headers: { 'x-api-key': key! } });
    expect(res.status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('never prints or serves the key without a key in production; the operator reads it with the CLI', async () => {
    const run = start({ NODE_ENV: 'production' });
    const url = await run.ready;
    await run.waitFor(/project key 1/);
    const project = (await (await fetch(`${url}/api/project`)).json()) as Record<string, unknown>;
    expect(project).toMatchObject({ id: 1, name: 'Default project' });
    expect(project).not.toHaveProperty('api_key');
    const cli = spawnSync(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', main, 'project', 'key', '1'],
      {
        env: { ...process.env, TEST_DATABASE_URL: '', DATA_DIR: run.dataDir, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      },
    );
    const key = /API key: (\S{24})/.exec(cli.stdout)?.[1];
    expect(key).toHaveLength(24);
    const res = await fetch(`${url}/api/languages`, { headers: { 'x-api-key': key! } });
    expect(res.status).toBe(200);
    expect(run.output()).not.toContain(key);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('stops with a clear message on a bad setting', async () => {
    const run = start({ TRANSLATOR_PORT: 'not-a-port' });
    await expect(run.ready).rejects.toThrow(/TRANSLATOR_PORT/);
    expect(await run.exited).toBe(2);
  });
});
