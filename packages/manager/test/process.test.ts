import { describe, expect, it } from 'vitest';
import { freePort } from './helpers.ts';
import { runManager } from './manager-process.ts';

describe('manager process', { timeout: 60_000 }, () => {
  it('refuses to start with a bad setting and names the variable', async () => {
    const proc = runManager({ MANAGER_PORT: 'eighty' });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toContain('MANAGER_PORT: expected a whole number');
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const proc = runManager({ MANAGER_PORT: String(port), HOST: '127.0.0.1' });
    await proc.waitFor('manager ready');
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(200);
    await proc.stop();
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('shutting down');
  });
});
