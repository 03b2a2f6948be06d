import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestClient } from '@app/server-kit/testing';
import { plainGet, seoSite, startHarness, type Harness } from './helpers.ts';

// The publishable page key: what a public page may hold. It registers phrases and reads approved
// translations (and the page client's start-up reads), only from the project's allowed origins.
const SHOP = 'https://shop.example';
const PAGE_ROUTES = ['POST /textnodes', 'GET /translations', 'GET /languages', 'GET /project/crawler-config'];

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.client.patch('/api/project/settings', {
    settings: { languages: ['fr'], allowedOrigins: [SHOP, 'https://*.shop.example', 'http://localhost:*'] },
  });
});
afterAll(async () => h?.stop());

/** A client that sends `key` from the page origin `origin` (none: no Origin header). */
function page(key: string, origin?: string, url = h.url): TestClient {
  const client = new TestClient(url);
  client.defaultHeaders['x-api-key'] = key;
  if (origin) client.defaultHeaders.origin = origin;
  return client;
}

async function pageKeyOf(client: TestClient): Promise<string> {
  return (await client.get('/api/project')).body.page_key;
}

describe('the page key', () => {
  it('exists for every project with its own prefix, shown to the full key holder', async () => {
    const project = await h.client.get('/api/project');
    expect(project.body.page_key).toMatch(/^tpk_[A-Za-z0-9_-]{24}$/);
    expect(project.body.page_key).toBe(h.pageKey);
    const other = await h.newProject('Other site');
    const theirs = await pageKeyOf(other.client);
    expect(theirs).toMatch(/^tpk_/);
    expect(theirs).not.toBe(h.pageKey);
  });

  it('registers phrases and reads approved translations from an allowed origin, with CORS for it', async () => {
    const shop = page(h.pageKey, SHOP);
    const registered = await shop.post('/api/textnodes', { keys: [{ key: 'Add to cart' }], url: `${SHOP}/` });
    expect(registered.status).toBe(200);
    expect(registered.body).toMatchObject({ ok: true, registered: 1 });
    expect(registered.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(registered.headers.get('vary')).toMatch(/origin/i);

    const rows = (await h.client.get('/api/translations/all?search=cart')).body.rows as { id: number }[];
    await h.client.patch('/api/textnodes/status', { ids: rows.map((r) => r.id), status: 'approved' });
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Add to cart', value: 'Ajouter au panier' }],
    });
    const delivered = await shop.get('/api/translations?lang=fr');
    expect(delivered.status).toBe(200);
    expect(delivered.body).toContainEqual({ key: 'Add to cart', context: '', value: 'Ajouter au panier' });
    expect(delivered.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(delivered.headers.get('vary')).toMatch(/origin/i);
    expect((await shop.get('/api/languages')).body).toEqual([{ code: 'fr', name: 'French' }]);
    expect((await shop.get('/api/project/crawler-config')).status).toBe(200);
  });

  it('is refused on every other route with a message saying what it is for', async () => {
    const doc = (await h.anonymous.get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const shop = page(h.pageKey, SHOP);
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        const route = `${method.toUpperCase()} ${path}`;
        // Public documents, probes and the accounts' own routes (sign-in, invitations) need no key; the
        // metrics take only the metrics token (below).
        const keyless = ['GET /', 'GET /openapi.json', 'GET /openapi.yaml', 'GET /livez', 'GET /readyz'];
        if (path.startsWith('/auth/') || path.startsWith('/invites/')) continue;
        if (PAGE_ROUTES.includes(route) || keyless.includes(route) || route === 'GET /metrics') continue;
        const concrete = path
          .replace('{id}', '1')
          .replace('{jobId}', '00000000-0000-4000-8000-000000000000')
          .replace('{filename}', 'translator-p1-2026-01-01T00-00-00-000Z.sqlite')
          .replace('{lang}', 'fr');
        const res = await shop.request(method.toUpperCase(), `/api${concrete}`, {
          body: ['GET', 'DELETE'].includes(method.toUpperCase()) ? undefined : {},
        });
        expect(res.status, route).toBe(403);
        expect(res.body.error, route).toEqual({
          code: 'page_key_not_allowed',
          message: expect.stringContaining('page key'),
        });
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect((await shop.request('GET', '/api/metrics')).status).toBe(401);
  });

  it('is refused without an allowed Origin, naming the origin and where to add it', async () => {
    const none = await page(h.pageKey).get('/api/translations?lang=fr');
    expect(none.status).toBe(403);
    expect(none.body.error).toEqual({
      code: 'origin_not_allowed',
      message: expect.stringMatching(/no Origin header.*Allowed origins/),
    });
    const evil = await page(h.pageKey, 'https://evil.example').post('/api/textnodes', {
      keys: [{ key: 'Injected text' }],
    });
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe('origin_not_allowed');
    expect(evil.body.error.message).toContain('https://evil.example');
    expect(evil.body.error.message).toContain('Settings → Allowed origins');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const injected = await h.client.get('/api/translations/all?search=Injected');
    expect(injected.body.total).toBe(0);
  });

  it('registers only page addresses on the allowed origins; other URLs are refused and not stored', async () => {
    const shop = page(h.pageKey, SHOP);
    for (const url of [
      'javascript:alert(document.cookie)',
      'https://evil.example/steal',
      'http://shop.example/',
      'https://user@shop.example/',
      'data:text/html,hi',
      'not an address',
    ]) {
      const refused = await shop.post('/api/textnodes', { keys: [{ key: 'Planted text' }], url });
      expect(refused.status, url).toBe(422);
      expect(refused.body.error, url).toMatchObject({
        code: 'validation_failed',
        fields: { url: expect.stringContaining('allowed origins') },
      });
    }
    expect((await h.client.get('/api/translations/all?search=Planted')).body.total).toBe(0);
    const stored = (await h.client.get('/api/analytics/urls?limit=200')).body.rows as { url: string }[];
    expect(stored.map((row) => row.url)).not.toContain('https://evil.example/steal');
    expect(stored.map((row) => row.url)).not.toContain('javascript:alert(document.cookie)');
    const sub = await shop.post('/api/textnodes', {
      keys: [{ key: 'Planted text' }],
      url: 'https://eu.shop.example/cart?step=2',
    });
    expect(sub.status).toBe(200);
  });

  it('marks stored pages off the allowed origins (from before the check) as not to be opened', async () => {
    // The full key still records any address (API clients are trusted); such rows stand for old data.
    await h.client.post('/api/textnodes', { keys: [{ key: 'Old row' }], url: "javascript:alert('old')" });
    await h.client.post('/api/textnodes', { keys: [{ key: 'Old row' }], url: `${SHOP}/old` });
    const rows = (await h.client.get('/api/analytics/urls?search=old')).body.rows;
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ url: "javascript:alert('old')", onAllowedOrigin: false }),
        expect.objectContaining({ url: `${SHOP}/old`, onAllowedOrigin: true }),
      ]),
    );
    const detail = async (url: string) =>
      (await h.client.get(`/api/analytics/url-detail?url=${encodeURIComponent(url)}`)).body;
    expect(await detail("javascript:alert('old')")).toMatchObject({ onAllowedOrigin: false });
    expect(await detail(`${SHOP}/old`)).toMatchObject({ onAllowedOrigin: true });
    // An origin taken off the list takes its pages with it.
    await h.client.patch('/api/project/settings', {
      settings: { allowedOrigins: ['https://*.shop.example', 'http://localhost:*'] },
    });
    expect(await detail(`${SHOP}/old`)).toMatchObject({ onAllowedOrigin: false });
    await h.client.patch('/api/project/settings', {
      settings: { allowedOrigins: [SHOP, 'https://*.shop.example', 'http://localhost:*'] },
    });
  });

  it('matches origins exactly: scheme, host, port; `*.` for subdomains; `:*` for any port', async () => {
    const cases: [string, number][] = [
      [SHOP, 200],
      ['https://shop.example:443', 200],
      ['https://a.shop.example', 200],
      ['https://b.a.shop.example', 200],
      ['http://shop.example', 403],
      ['https://shop.example:8443', 403],
      ['https://a.shop.example:8443', 403],
      ['https://evilshop.example', 403],
      ['https://shop.example.evil.example', 403],
      ['http://localhost:5173', 200],
      ['http://localhost', 200],
      ['https://localhost:5173', 403],
      ['null', 403],
    ];
    for (const [origin, status] of cases) {
      const res = await page(h.pageKey, origin).get('/api/languages');
      expect(res.status, origin).toBe(status);
    }
  });

  it('answers CORS preflights of the page routes for allowed origins only; other routes as before', async () => {
    const preflight = (path: string, origin: string, method = 'GET') =>
      fetch(`${h.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': 'x-api-key, content-type',
        },
      });
    const allowed = await preflight('/api/textnodes', 'https://a.shop.example', 'POST');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://a.shop.example');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('x-api-key');
    expect(allowed.headers.get('vary')).toMatch(/origin/i);
    const refused = await preflight('/api/translations?lang=fr', 'https://evil.example');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('vary')).toMatch(/origin/i);
    // The full key's routes keep answering any origin (API clients send the key in a header, no cookies).
    const other = await preflight('/api/translations/all', 'https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBe('*');
    const write = await preflight('/api/translations', 'https://evil.example', 'POST');
    expect(write.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('regenerates on its own: the old page key stops at once, the full key is untouched', async () => {
    const mine = await h.newProject('Rotating pages');
    await mine.client.patch('/api/project/settings', { settings: { allowedOrigins: [SHOP] } });
    const oldPageKey = await pageKeyOf(mine.client);
    expect((await page(oldPageKey, SHOP).get('/api/languages')).status).toBe(200);
    expect((await page(oldPageKey, SHOP).post('/api/project/regenerate-page-key')).status).toBe(403);
    const res = await mine.client.post('/api/project/regenerate-page-key');
    expect(res.status).toBe(200);
    expect(res.body.page_key).toMatch(/^tpk_/);
    expect(res.body.page_key).not.toBe(oldPageKey);
    expect(res.body.api_key).toBe(mine.key);
    const stale = await page(oldPageKey, SHOP).get('/api/languages');
    expect(stale.status).toBe(401);
    expect(stale.body.error).toEqual({
      code: 'unauthorized',
      message: expect.stringContaining('page key is not valid'),
    });
    expect((await page(res.body.page_key, SHOP).get('/api/languages')).status).toBe(200);
    expect((await mine.client.get('/api/languages')).status).toBe(200);
  });

  it('is not shown to a keyless caller who may not see the key', async () => {
    const res = await h.anonymous.get('/api/project', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.body).not.toHaveProperty('page_key');
    expect(res.text).not.toContain(h.pageKey);
    expect((await h.anonymous.get('/api/project')).body.page_key).toBe(h.pageKey);
  });
});

describe('allowed origins setting', () => {
  it('is validated strictly and stored normalised', async () => {
    const mine = await h.newProject('Origins');
    const ok = await mine.client.patch('/api/project/settings', {
      settings: {
        allowedOrigins: [
          'HTTPS://Shop.Example:443/',
          'https://*.Shop.example',
          'http://localhost:8080',
          'http://127.0.0.1:*',
          'http://[::1]:3000',
          'https://shop.example',
        ],
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.settings.allowedOrigins).toEqual([
      'https://shop.example',
      'https://*.shop.example',
      'http://localhost:8080',
      'http://127.0.0.1:*',
      'http://[::1]:3000',
    ]);
    const bad = [
      'shop.example',
      'https://shop.example/path',
      'https://shop.example?x=1',
      'ftp://shop.example',
      'https://*.com',
      'https://*',
      'https://sh op.example',
      'https://shop.example:99999',
      'https://user@shop.example',
      'https://-shop.example',
      'https://*.127.0.0.1',
      '*',
    ];
    const res = await mine.client.patch('/api/project/settings', { settings: { allowedOrigins: bad } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.fields).sort()).toEqual(
      bad.map((_, i) => `allowedOrigins.${i}`).sort(),
    );
    expect(res.body.error.fields['allowedOrigins.0']).toMatch(
      /not an origin such as https:\/\/shop\.example/,
    );
    expect((await mine.client.get('/api/project')).body.settings.allowedOrigins).toHaveLength(5);
  });

  it('outside production the default project allows this machine’s pages; in production none', async () => {
    // As created (this file's beforeAll changed it since).
    const local = h.translator.defaultProject.project.settings.allowedOrigins;
    expect(local).toEqual(['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*']);
    const prod = await startHarness({ production: true });
    try {
      expect((await prod.client.get('/api/project')).body.settings.allowedOrigins).toEqual([]);
      expect((await page(prod.pageKey, 'http://localhost:5173', prod.url).get('/api/languages')).status).toBe(
        403,
      );
    } finally {
      await prod.stop();
    }
  });
});

describe('page key limits', () => {
  it('limits page-key writes per project and address with 429 and Retry-After; the full key is not', async () => {
    const limited = await startHarness({ pageKey: { writesPerMinute: 3 } });
    try {
      const shop = page(limited.pageKey, 'http://localhost:3000', limited.url);
      for (let i = 0; i < 3; i++)
        expect((await shop.post('/api/textnodes', { keys: [{ key: `Phrase ${'abc'[i]}` }] })).status).toBe(
          200,
        );
      const blocked = await shop.post('/api/textnodes', { keys: [{ key: 'One too many' }] });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error).toEqual({ code: 'rate_limited', message: expect.stringContaining('page') });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // Reads have their own allowance; the full key and other projects are not limited by this one.
      expect((await shop.get('/api/translations?lang=fr')).status).toBe(200);
      expect((await limited.client.post('/api/textnodes', { keys: [{ key: 'By the owner' }] })).status).toBe(
        200,
      );
    } finally {
      await limited.stop();
    }
  });

  it('caps the phrases waiting for review that pages may add; the full key may add more', async () => {
    const capped = await startHarness({ pageKey: { maxPendingPhrases: 5 } });
    try {
      const shop = page(capped.pageKey, 'http://localhost:3000', capped.url);
      const keys = (...names: string[]) => ({
        keys: names.map((key) => ({ key })),
        url: 'http://localhost/',
      });
      expect((await shop.post('/api/textnodes', keys('One', 'Two', 'Three'))).body.registered).toBe(3);
      const partly = await shop.post('/api/textnodes', keys('Four', 'Five', 'Six', 'Seven'));
      expect(partly.status).toBe(200);
      expect(partly.body.registered).toBe(2);
      const full = await shop.post('/api/textnodes', keys('Eight'));
      expect(full.status).toBe(429);
      expect(full.body.error.code).toBe('rate_limited');
      expect(full.body.error.message).toMatch(/5 phrases waiting for review/);
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
      // Known phrases are still seen on pages; the owner reviews and room is made again.
      expect((await shop.post('/api/textnodes', keys('One'))).status).toBe(200);
      expect((await capped.client.post('/api/textnodes', keys('Owner text'))).body.registered).toBe(1);
      expect((await capped.client.get('/api/translations/counts')).body.pending).toBe(6);
      await capped.client.post('/api/textnodes/clear-pending');
      expect((await shop.post('/api/textnodes', keys('Eight'))).body.registered).toBe(1);
    } finally {
      await capped.stop();
    }
  });
});

describe('page key: pages a project records', () => {
  it('records new page URLs only while the project has fewer than the cap; the full key is not capped', async () => {
    const capped = await startHarness({ pageKey: { maxUrls: 2 } });
    try {
      const shop = page(capped.pageKey, 'http://localhost:3000', capped.url);
      const seen = (url: string, key: string) => shop.post('/api/textnodes', { keys: [{ key }], url });
      expect((await seen('http://localhost:3000/a', 'Alpha')).status).toBe(200);
      expect((await seen('http://localhost:3000/b', 'Beta')).status).toBe(200);
      // A third page: its phrase is registered, the page is not recorded.
      const third = await seen('http://localhost:3000/c', 'Gamma');
      expect(third.body).toMatchObject({ ok: true, registered: 1 });
      // Known pages still gather their phrases.
      expect((await seen('http://localhost:3000/a', 'Delta')).body.registered).toBe(1);
      const urls = async () =>
        ((await capped.client.get('/api/analytics/urls')).body.rows as { url: string; phraseCount: number }[])
          .map((row) => `${row.url} ${row.phraseCount}`)
          .sort();
      expect(await urls()).toEqual(['http://localhost:3000/a 2', 'http://localhost:3000/b 1']);
      await capped.client.post('/api/textnodes', {
        keys: [{ key: 'Gamma' }],
        url: 'http://localhost:3000/c',
      });
      expect(await urls()).toContain('http://localhost:3000/c 1');
    } finally {
      await capped.stop();
    }
  });
});

describe('page key: pages SEO mode records', () => {
  it('records a rendered page only while the site’s address is on the allowed origins', async () => {
    const seo = await startHarness();
    const site = await seoSite(seo, {
      routes: {
        '/': { body: '<!doctype html><html lang="en"><body><h1>Seen while listed</h1></body></html>' },
        '/unlisted': {
          body: '<!doctype html><html lang="en"><body><h1>Seen while unlisted</h1></body></html>',
        },
        '*': { status: 404, body: 'Not found' },
      },
      languages: ['fr'],
      translations: { Hello: 'Bonjour' },
    });
    try {
      const phrase = async (key: string) =>
        (await seo.client.get(`/api/translations/all?search=${encodeURIComponent(key)}`)).body.rows[0];
      await plainGet(`${site.site.url}/fr/`);
      await vi.waitFor(async () =>
        expect((await phrase('Seen while listed'))?.urls).toEqual([`${site.site.url}/`]),
      );

      await seo.client.patch('/api/project/settings', { settings: { allowedOrigins: [SHOP] } });
      await plainGet(`${site.site.url}/fr/unlisted`);
      await vi.waitFor(async () => expect((await phrase('Seen while unlisted'))?.urls).toEqual([]));
      const urls = (await seo.client.get('/api/analytics/urls')).body.rows.map(
        (row: { url: string }) => row.url,
      );
      expect(urls).not.toContain(`${site.site.url}/unlisted`);
    } finally {
      await site.stop();
      await seo.stop();
    }
  });
});

describe('the full key used from a page', () => {
  it('records the origin for the dashboard’s warning until dismissed or the key is regenerated', async () => {
    const mine = await h.newProject('Leaky');
    expect((await mine.client.get('/api/project')).body.full_key_used_from).toBeNull();
    // The dashboard itself (same origin as the API) does not count.
    const own = await mine.client.post(
      '/api/textnodes',
      { keys: [{ key: 'x y' }] },
      { headers: { origin: h.url } },
    );
    expect(own.status).toBe(200);
    expect((await mine.client.get('/api/project')).body.full_key_used_from).toBeNull();

    const leaked = await mine.client.get('/api/languages', { headers: { origin: SHOP } });
    expect(leaked.status).toBe(200);
    const seen = (await mine.client.get('/api/project')).body.full_key_used_from;
    expect(seen).toEqual({ origin: SHOP, at: expect.any(String) });
    expect(Date.parse(seen.at)).toBeGreaterThan(Date.now() - 60_000);

    const dismissed = await mine.client.delete('/api/project/full-key-warning');
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.full_key_used_from).toBeNull();
    expect((await mine.client.get('/api/project')).body.full_key_used_from).toBeNull();

    await mine.client.get('/api/languages', { headers: { origin: 'https://blog.example' } });
    expect((await mine.client.get('/api/project')).body.full_key_used_from.origin).toBe(
      'https://blog.example',
    );
    const regenerated = await mine.client.post('/api/project/regenerate-key');
    expect(regenerated.body.full_key_used_from).toBeNull();
  });
});
