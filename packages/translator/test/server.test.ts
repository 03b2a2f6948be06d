import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectPrecompressed, writePrecompressed } from '@app/server-kit/testing/precompressed';
import { startHarness, type Harness } from './helpers.ts';

const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.stop();
});

describe('rate limiting', () => {
  it('blocks an address with 429 after repeated failures, even for valid keys', async () => {
    const h = await startHarness({ rateLimit: { failures: 5, windowSeconds: 60, blockSeconds: 30 } });
    harnesses.push(h);
    for (let i = 0; i < 5; i++) {
      expect(
        (await h.anonymous.get('/api/languages', { headers: { 'x-api-key': `guess-${i}`.padEnd(24, 'x') } }))
          .status,
      ).toBe(401);
    }
    const blocked = await h.client.get('/api/languages');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('static files hook', () => {
  it('serves the dashboard at / with an index fallback, and extra routes from extend()', async () => {
    const probe = await startHarness();
    const staticDir = join(probe.database.dataDir, 'web');
    await probe.stop();
    mkdirSync(staticDir, { recursive: true });
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Dashboard</title>');
    writeFileSync(join(staticDir, 'app.js'), 'console.log("dashboard")');
    const bundle = `console.log(${JSON.stringify('dashboard '.repeat(400))})`;
    writePrecompressed(join(staticDir, 'main.js'), bundle);
    const h = await startHarness(
      {},
      {
        staticDir,
        extend: (app) => {
          app.get('/widget.js', async (_request, reply) =>
            reply.type('text/javascript').header('cache-control', 'max-age=300').send('window.Loco = {};'),
          );
        },
      },
    );
    harnesses.push(h);
    const index = await h.anonymous.get('/');
    expect(index.status).toBe(200);
    expect(index.text).toContain('Dashboard');
    expect((await h.anonymous.get('/app.js')).text).toContain('dashboard');
    const route = await h.anonymous.get('/phrases/review');
    expect(route.status).toBe(200);
    expect(route.text).toContain('Dashboard');
    expect((await h.anonymous.get('/widget.js')).text).toBe('window.Loco = {};');
    // The dashboard is served with the manager's security headers, whatever file is asked for.
    for (const path of ['/', '/app.js', '/phrases/review']) {
      const res = await h.anonymous.get(path);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    // The build's .br and .gz copies go to the browsers that take them (issue 34), with the same headers.
    const compressed = await expectPrecompressed(`${h.url}/main.js`, bundle);
    expect(compressed.get('content-type')).toMatch(/javascript/);
    expect(compressed.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const api = await h.client.get('/api/not-a-route');
    expect(api.status).toBe(404);
    expect(api.body.error.code).toBe('not_found');
  });
});
