import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '@app/server-kit/testing';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.stop());

describe('service and project', () => {
  it('GET /api answers name, status and version without a key', async () => {
    const res = await h.anonymous.get('/api');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'translator', status: 'ok', version: expect.any(String) });
  });

  it('GET /api/project without a key returns the default project with its 24-character key', async () => {
    const res = await h.anonymous.get('/api/project');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: 'Default project',
      created_at: expect.any(String),
    });
    expect(res.body.api_key).toHaveLength(24);
    expect(res.body.api_key).toBe(h.key);
    expect(res.body.settings).toMatchObject({
      languages: [],
      translationProviderApiKey: '',
      translationProviderApiKeySet: false,
      blockedTags: [],
      inlineTags: expect.arrayContaining(['strong', 'em']),
      domContextSelectors: [],
      contextDepth: 0,
      domContextEnabled: false,
      screenshotsEnabled: false,
    });
  });

  it('GET /api/project without a key never holds the key for a caller behind an untrusted proxy', async () => {
    for (const header of ['x-forwarded-for', 'x-real-ip', 'forwarded']) {
      const value = header === 'forwarded' ? 'for=203.0.113.9' : '203.0.113.9';
      const res = await h.anonymous.get('/api/project', { headers: { [header]: value } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
      expect(res.body).not.toHaveProperty('api_key');
      expect(res.text).not.toContain(h.key);
    }
    // A key holder gets its own key whatever the headers say.
    const keyed = await h.client.get('/api/project', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(keyed.body.api_key).toBe(h.key);
  });

  it('GET /api/project with a key returns that key’s project, and a wrong key is 401', async () => {
    const other = await h.newProject('Second');
    const res = await other.client.get('/api/project');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: other.id, name: 'Second', api_key: other.key });
    const wrong = await h.anonymous.get('/api/project', { headers: { 'x-api-key': 'x'.repeat(24) } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('unauthorized');
  });

  it('PATCH /api/project renames; a blank name is 400', async () => {
    const res = await h.client.patch('/api/project', { name: 'Shop' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Shop');
    expect((await h.client.get('/api/project')).body.name).toBe('Shop');
    const blank = await h.client.patch('/api/project', { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toMatchObject({ code: 'invalid_request', fields: { name: expect.any(String) } });
    const missing = await h.client.patch('/api/project', {});
    expect(missing.status).toBe(400);
  });

  it('PATCH /api/project/settings updates only the given fields and validates them', async () => {
    const res = await h.client.patch('/api/project/settings', {
      settings: {
        languages: ['fr', 'de', 'pt_BR', 'fr'],
        contextDepth: 2,
        translationProviderApiKey: 'sk-test',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.settings).toMatchObject({
      languages: ['fr', 'de', 'pt-BR'],
      contextDepth: 2,
      domContextEnabled: false,
      translationProviderApiKey: '',
      translationProviderApiKeySet: true,
    });
    const partial = await h.client.patch('/api/project/settings', {
      settings: { blockedTags: ['NAV', 'footer'] },
    });
    expect(partial.body.settings).toMatchObject({
      languages: ['fr', 'de', 'pt-BR'],
      blockedTags: ['nav', 'footer'],
    });
    expect(partial.body.settings.translationProviderApiKeySet).toBe(true);

    const badLang = await h.client.patch('/api/project/settings', { settings: { languages: ['french!'] } });
    expect(badLang.status).toBe(422);
    expect(badLang.body.error).toMatchObject({
      code: 'validation_failed',
      fields: { 'languages.0': expect.any(String) },
    });
    const badDepth = await h.client.patch('/api/project/settings', { settings: { contextDepth: 99 } });
    expect(badDepth.status).toBe(422);
    const badType = await h.client.patch('/api/project/settings', {
      settings: { domContextEnabled: 'maybe' },
    });
    expect(badType.status).toBe(400);
    const noSettings = await h.client.patch('/api/project/settings', {});
    expect(noSettings.status).toBe(400);
    // nothing of the rejected patches was kept
    expect((await h.client.get('/api/project')).body.settings.contextDepth).toBe(2);

    const cleared = await h.client.patch('/api/project/settings', {
      settings: { translationProviderApiKey: null },
    });
    expect(cleared.body.settings.translationProviderApiKeySet).toBe(false);
  });

  it('GET /api/project/crawler-config returns the crawler members only', async () => {
    await h.client.patch('/api/project/settings', {
      settings: { domContextEnabled: true, domContextSelectors: ['main', 'nav'] },
    });
    const res = await h.client.get('/api/project/crawler-config');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'blockedTags',
        'contextDepth',
        'domContextEnabled',
        'domContextSelectors',
        'inlineTags',
        'languagePaths',
        'screenshotsEnabled',
      ].sort(),
    );
    expect(res.body).toMatchObject({ domContextEnabled: true, domContextSelectors: ['main', 'nav'] });
  });

  it('POST /api/project/reset-database deletes this project’s phrases and translations only', async () => {
    const other = await h.newProject('Neighbour');
    await h.client.post('/api/textnodes', {
      keys: [{ key: 'Hello' }, { key: 'World' }],
      url: 'https://a.test/',
    });
    await other.client.post('/api/textnodes', { keys: [{ key: 'Hello' }], url: 'https://b.test/' });
    const res = await h.client.post('/api/project/reset-database');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, deletedPhrases: 2 });
    expect((await h.client.get('/api/translations/counts')).body).toEqual({
      pending: 0,
      approved: 0,
      trash: 0,
    });
    expect((await other.client.get('/api/translations/counts')).body).toEqual({
      pending: 1,
      approved: 0,
      trash: 0,
    });
  });

  it('POST /api/project/regenerate-key replaces the key and the old one stops at once', async () => {
    const mine = await h.newProject('Rotating');
    const oldKey = mine.key;
    expect((await mine.client.get('/api/translations/counts')).status).toBe(200);
    const res = await mine.client.post('/api/project/regenerate-key');
    expect(res.status).toBe(200);
    expect(res.body.api_key).toHaveLength(24);
    expect(res.body.api_key).not.toBe(oldKey);
    const stale = await mine.client.get('/api/translations/counts');
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('unauthorized');
    const fresh = new TestClient(h.url);
    fresh.defaultHeaders['x-api-key'] = res.body.api_key;
    expect((await fresh.get('/api/translations/counts')).status).toBe(200);
  });
});

describe('GET /api/project without a key, in production or behind a proxy', () => {
  it('in production the keyless answer has no key; a key holder still reads its own', async () => {
    const prod = await startHarness({ production: true });
    try {
      const res = await prod.anonymous.get('/api/project');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: expect.any(Number), name: 'Default project' });
      expect(res.body).not.toHaveProperty('api_key');
      expect(res.text).not.toContain(prod.key);
      expect((await prod.client.get('/api/project')).body.api_key).toBe(prod.key);
    } finally {
      await prod.stop();
    }
  });

  it('behind a trusted proxy only a loopback client it names gets the key', async () => {
    const proxied = await startHarness({ trustProxy: ['127.0.0.1'] });
    try {
      const local = await proxied.anonymous.get('/api/project', {
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(local.body.api_key).toBe(proxied.key);
      const remote = await proxied.anonymous.get('/api/project', {
        headers: { 'x-forwarded-for': '198.51.100.7' },
      });
      expect(remote.status).toBe(200);
      expect(remote.body).not.toHaveProperty('api_key');
    } finally {
      await proxied.stop();
    }
  });
});

describe('authentication', () => {
  const protectedRoutes: [string, string][] = [
    ['PATCH', '/api/project'],
    ['POST', '/api/project/regenerate-key'],
    ['PATCH', '/api/project/settings'],
    ['GET', '/api/project/crawler-config'],
    ['POST', '/api/project/reset-database'],
    ['POST', '/api/textnodes'],
    ['GET', '/api/translations/counts'],
    ['PATCH', '/api/textnodes/status'],
    ['GET', '/api/textnodes/untranslated-ids?lang=fr'],
    ['POST', '/api/textnodes/bulk-delete'],
    ['DELETE', '/api/textnodes/1'],
    ['PATCH', '/api/phrases/1'],
    ['POST', '/api/textnodes/clear-pending'],
    ['GET', '/api/translations?lang=fr'],
    ['GET', '/api/translations/all'],
    ['POST', '/api/translations'],
    ['DELETE', '/api/translations/1'],
    ['GET', '/api/languages'],
    ['GET', '/api/export'],
    ['GET', '/api/export/fr'],
    ['POST', '/api/ai-jobs'],
    ['GET', '/api/ai-jobs'],
    ['GET', '/api/ai-jobs/log'],
    ['GET', '/api/ai-jobs/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/api/ai-jobs/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/prompts'],
    ['POST', '/api/prompts'],
    ['PUT', '/api/prompts/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/api/prompts/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/analytics'],
    ['GET', '/api/analytics/languages'],
    ['GET', '/api/analytics/urls'],
    ['GET', '/api/analytics/url-detail?url=x'],
    ['GET', '/api/analytics/activity'],
    ['GET', '/api/analytics/phrase-detail?id=1'],
    ['GET', '/api/backups'],
    ['POST', '/api/backups'],
    ['DELETE', '/api/backups/translator-p1-2026-01-01T00-00-00-000Z.sqlite'],
    ['GET', '/api/backup'],
  ];

  it.each(protectedRoutes)('%s %s without a key is 401', async (method, path) => {
    const res = await h.anonymous.request(method, path, {
      body: method === 'GET' || method === 'DELETE' ? undefined : {},
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: { code: 'unauthorized', message: expect.stringContaining('X-API-Key') },
    });
  });

  it.each(protectedRoutes)('%s %s with a wrong key is 401', async (method, path) => {
    const res = await h.anonymous.request(method, path, {
      headers: { 'x-api-key': 'wrong-key-wrong-key-1234' },
    });
    expect(res.status).toBe(401);
  });

  it('answers CORS preflights of the API routes for any origin (page routes: see page-key.test.ts)', async () => {
    const res = await fetch(`${h.url}/api/translations/all`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://tools.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-api-key');
  });

  it('unknown routes are 404 not_found and the OpenAPI document is served', async () => {
    const res = await h.client.get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    const doc = await h.anonymous.get('/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toContain('/textnodes');
  });
});
