import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
let ids: Record<string, number>;

beforeAll(async () => {
  h = await startHarness();
  await h.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de', 'pt-BR'] } });
});
afterAll(async () => h?.stop());

beforeEach(async () => {
  await h.client.post('/api/project/reset-database');
  await h.client.post('/api/textnodes', {
    keys: [
      { key: 'Hello' },
      { key: 'Goodbye' },
      { key: 'You have 2 items' },
      { key: 'Hello', context: 'header' },
      { key: 'Pending one' },
    ],
    url: 'https://shop.test/home',
  });
  await h.client.post('/api/textnodes', { keys: [{ key: 'Goodbye' }], url: 'https://shop.test/bye' });
  const all = await h.client.get('/api/translations/all?limit=100');
  ids = Object.fromEntries(
    all.body.rows.map((r: { key: string; context: string; id: number }) => [
      r.key + (r.context ? `|${r.context}` : ''),
      r.id,
    ]),
  );
  await h.client.patch('/api/textnodes/status', {
    ids: [ids.Hello, ids.Goodbye, ids['You have {{number:0}} items'], ids['Hello|header']],
    status: 'approved',
  });
});

/** A raw GET, so the test sees the encoded bytes (fetch would decode them). */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = httpRequest(`${h.url}${path}`, { headers: { 'x-api-key': h.key, ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('POST /api/translations', () => {
  it('creates and replaces translations, matching concrete keys through their slot pattern', async () => {
    const res = await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { key: 'Hello', context: '', value: 'Bonjour' },
        { key: 'Hello', context: 'header', value: 'Salut' },
        { key: 'You have 5 items', context: '', value: 'Vous avez {{number:0}} articles' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, saved: 3, created: 3, updated: 0 });
    const again = await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ id: ids.Hello, value: 'Bonjour !' }],
    });
    expect(again.body).toEqual({ ok: true, saved: 1, created: 0, updated: 1 });
    const delivered = await h.client.get('/api/translations?lang=fr');
    expect(delivered.body).toEqual([
      { key: 'Hello', context: '', value: 'Bonjour !' },
      { key: 'You have {{number:0}} items', context: '', value: 'Vous avez {{number:0}} articles' },
      { key: 'Hello', context: 'header', value: 'Salut' },
    ]);
  });

  it('refuses an unconfigured language, an unknown phrase and a lost slot, writing nothing', async () => {
    const lang = await h.client.post('/api/translations', {
      lang: 'it',
      translations: [{ key: 'Hello', value: 'Ciao' }],
    });
    expect(lang.status).toBe(422);
    expect(lang.body.error).toMatchObject({
      code: 'unknown_language',
      message: expect.stringContaining('"it"'),
    });
    const missing = await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { key: 'Hello', value: 'Bonjour' },
        { key: 'Nope', value: 'Non' },
      ],
    });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({
      code: 'unknown_phrase',
      fields: { 'translations.1': expect.any(String) },
    });
    const slots = await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { key: 'Goodbye', value: 'Au revoir' },
        { key: 'You have {{number:0}} items', value: 'Vous avez des articles' },
      ],
    });
    expect(slots.status).toBe(422);
    expect(slots.body.error).toMatchObject({
      code: 'slot_mismatch',
      fields: { 'translations.1.value': expect.any(String) },
    });
    const shape = await h.client.post('/api/translations', { lang: 'fr', translations: [{ key: 'Hello' }] });
    expect(shape.status).toBe(400);
    const noRef = await h.client.post('/api/translations', { lang: 'fr', translations: [{ value: 'x' }] });
    expect(noRef.status).toBe(400);
    expect((await h.client.get('/api/translations?lang=fr')).body).toEqual([]);
  });

  it('another project cannot write into this project’s phrases', async () => {
    const other = await h.newProject('Other');
    await other.client.patch('/api/project/settings', { settings: { languages: ['fr'] } });
    const res = await other.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ id: ids.Hello, value: 'Pirate' }],
    });
    expect(res.status).toBe(422);
    expect((await h.client.get('/api/translations?lang=fr')).body).toEqual([]);
  });
});

describe('GET /api/translations (delivery)', () => {
  beforeEach(async () => {
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { key: 'Hello', value: 'Bonjour' },
        { key: 'Pending one', value: 'En attente' },
      ],
    });
  });

  it('serves approved phrases only, with a strong ETag and 304 on a match', async () => {
    const res = await h.client.get('/api/translations?lang=fr');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ key: 'Hello', context: '', value: 'Bonjour' }]);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await h.client.get('/api/translations?lang=fr', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await h.client.get('/api/translations?lang=de')).body).toEqual([]);
    expect((await h.client.get('/api/translations')).status).toBe(400);
  });

  it('drops the cached answer on every relevant write', async () => {
    const first = await h.client.get('/api/translations?lang=fr');
    await h.client.patch('/api/textnodes/status', { ids: [ids['Pending one']], status: 'approved' });
    const afterStatus = await h.client.get('/api/translations?lang=fr', {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(afterStatus.status).toBe(200);
    expect(afterStatus.body).toHaveLength(2);
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Goodbye', value: 'Au revoir' }],
    });
    expect((await h.client.get('/api/translations?lang=fr')).body).toHaveLength(3);
    await h.client.patch(`/api/phrases/${ids.Goodbye}`, { key: 'Good bye' });
    expect(
      (await h.client.get('/api/translations?lang=fr')).body.map((t: { key: string }) => t.key),
    ).toContain('Good bye');
    await h.client.delete(`/api/textnodes/${ids.Goodbye}`);
    expect((await h.client.get('/api/translations?lang=fr')).body).toHaveLength(2);
    const list = await h.client.get('/api/translations/all?lang=fr&translated=yes');
    const translationId = list.body.rows.find((r: { key: string }) => r.key === 'Hello').translationId;
    expect((await h.client.delete(`/api/translations/${translationId}`)).body).toEqual({ ok: true });
    expect((await h.client.get('/api/translations?lang=fr')).body).toHaveLength(1);
    await h.client.post('/api/project/reset-database');
    expect((await h.client.get('/api/translations?lang=fr')).body).toEqual([]);
  });

  it('compresses with gzip or brotli when the body is large enough', async () => {
    const keys = Array.from({ length: 100 }, (_, i) => ({
      key: `Long phrase for compression ${String.fromCharCode(97 + (i % 26))}-${i}`,
    }));
    await h.client.post('/api/textnodes', { keys });
    const all = await h.client.get('/api/translations/all?status=pending&limit=500');
    const newIds = all.body.rows.map((r: { id: number }) => r.id);
    await h.client.patch('/api/textnodes/status', { ids: newIds, status: 'approved' });
    await h.client.post('/api/translations', {
      lang: 'de',
      translations: all.body.rows.map((r: { id: number; key: string }) => ({
        id: r.id,
        value: `${r.key} auf Deutsch`,
      })),
    });
    const plain = await rawGet('/api/translations?lang=de', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzip = await rawGet('/api/translations?lang=de', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 2);
    const br = await rawGet('/api/translations?lang=de', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.headers.etag).toBe(plain.headers.etag);
    expect(br.headers.vary).toContain('accept-encoding');
  });
});

describe('GET /api/translations/all', () => {
  beforeEach(async () => {
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { key: 'Hello', value: 'Bonjour' },
        { key: 'Goodbye', value: 'Au revoir' },
      ],
    });
  });

  it('returns rows with every field, paged', async () => {
    const res = await h.client.get('/api/translations/all?lang=fr&limit=2&page=1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, page: 1, limit: 2 });
    expect(res.body.rows).toHaveLength(2);
    const page3 = await h.client.get('/api/translations/all?lang=fr&limit=2&page=3');
    expect(page3.body.rows).toHaveLength(1);
    const goodbye = (await h.client.get('/api/translations/all?lang=fr&search=goodbye')).body.rows[0];
    expect(goodbye).toEqual({
      id: ids.Goodbye,
      key: 'Goodbye',
      context: '',
      status: 'approved',
      varSlots: [],
      slotTexts: [],
      hasScreenshot: false,
      value: 'Au revoir',
      translated: true,
      translationId: expect.any(Number),
      state: 'human',
      suggestion: null,
      outdatedFrom: null,
      checks: [],
      urls: ['https://shop.test/bye', 'https://shop.test/home'],
    });
  });

  it('filters by status, translated, and search in each field', async () => {
    const get = async (query: string) => (await h.client.get(`/api/translations/all?${query}`)).body;
    expect((await get('status=pending')).total).toBe(1);
    expect((await get('lang=fr&translated=yes')).total).toBe(2);
    expect((await get('lang=fr&translated=no')).total).toBe(3);
    expect((await get('lang=fr&translated=no&status=approved')).total).toBe(2);
    expect(
      (await get('lang=fr&search=REVOIR&search_field=value')).rows.map((r: { key: string }) => r.key),
    ).toEqual(['Goodbye']);
    expect((await get('search=header&search_field=context')).total).toBe(1);
    expect((await get('search=bye&search_field=url')).total).toBe(1);
    expect((await get('lang=fr&search=bonjour&search_field=all')).total).toBe(1);
    expect((await get('search=100%25')).total).toBe(0);
    expect((await get('search=hello')).total).toBe(2);
    const noLang = await get('');
    expect(
      noLang.rows.every((r: { value: unknown; translated: boolean }) => r.value === null && !r.translated),
    ).toBe(true);
  });

  it('lists only the phrases named by ids, in any status, for the other languages of a side-by-side grid', async () => {
    await h.client.post('/api/translations', {
      lang: 'de',
      translations: [{ key: 'Goodbye', value: 'Tschüss' }],
    });
    const get = async (query: string) => (await h.client.get(`/api/translations/all?${query}`)).body;
    const shown = await get(`lang=de&ids=${ids.Goodbye},${ids.Hello}`);
    expect(shown.total).toBe(2);
    expect(
      shown.rows.map((row: { key: string; value: string | null }) => [row.key, row.value]).sort(),
    ).toEqual([
      ['Goodbye', 'Tschüss'],
      ['Hello', null],
    ]);
    // Another project's phrase is not listed through its id.
    const other = await h.newProject('Foreign');
    expect((await other.client.get(`/api/translations/all?ids=${ids.Hello}`)).body.total).toBe(0);
  });

  it('rejects bad filters with 400', async () => {
    for (const query of [
      'ids=1,x',
      `ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
      'status=done',
      'translated=maybe',
      'translated=yes',
      'page=0',
      'limit=1000',
      'search_field=everything',
    ]) {
      const res = await h.client.get(`/api/translations/all?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
  });

  it('DELETE /api/translations/:id is 404 for unknown or foreign ids', async () => {
    const row = (
      await h.client.get('/api/translations/all?lang=fr&search=hello&search_field=key')
    ).body.rows.find((r: { translated: boolean }) => r.translated);
    const other = await h.newProject('Foreign');
    expect((await other.client.delete(`/api/translations/${row.translationId}`)).status).toBe(404);
    expect((await h.client.delete('/api/translations/999999')).status).toBe(404);
    expect((await h.client.delete(`/api/translations/${row.translationId}`)).status).toBe(200);
    expect((await h.client.delete(`/api/translations/${row.translationId}`)).status).toBe(404);
  });
});

describe('languages and export', () => {
  it('GET /api/languages names the configured languages', async () => {
    const res = await h.client.get('/api/languages');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { code: 'fr', name: 'French' },
      { code: 'de', name: 'German' },
      { code: 'pt-BR', name: 'Portuguese (Brazil)' },
    ]);
  });

  it('GET /api/languages?delivered=yes names only the languages GET /api/translations delivers, cached until a write', async () => {
    const delivered = async () =>
      ((await h.client.get('/api/languages?delivered=yes')).body as { code: string }[]).map((l) => l.code);
    // German has only a pending phrase's translation, which is not delivered.
    await h.client.post('/api/translations', {
      lang: 'de',
      translations: [{ key: 'Pending one', value: 'Ausstehend' }],
    });
    expect(await delivered()).toEqual([]);
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Hello', value: 'Bonjour' }],
    });
    expect((await h.client.get('/api/languages?delivered=yes')).body).toEqual([
      { code: 'fr', name: 'French' },
    ]);
    await h.client.patch('/api/textnodes/status', { ids: [ids['Pending one']], status: 'approved' });
    expect(await delivered()).toEqual(['fr', 'de']);
    await h.client.patch('/api/project/settings', { settings: { deliverReviewedOnly: true } });
    expect(await delivered()).toEqual([]);
    await h.client.patch('/api/project/settings', { settings: { deliverReviewedOnly: false } });
    expect((await h.client.get('/api/languages')).body).toHaveLength(3);
    expect((await h.client.get('/api/languages?delivered=no')).status).toBe(400);
  });

  it('GET /api/languages/available offers the named languages by name, every one a code the project accepts', async () => {
    const res = await h.client.get('/api/languages/available');
    expect(res.status).toBe(200);
    const list = res.body as Array<{ code: string; name: string }>;
    expect(list).toContainEqual({ code: 'fr', name: 'French' });
    expect(list).toContainEqual({ code: 'zh-Hant', name: 'Chinese (Traditional)' });
    const names = list.map((l) => l.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    const saved = await h.client.patch('/api/project/settings', {
      settings: { languages: list.map((l) => l.code) },
    });
    expect(saved.status).toBe(200);
    await h.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de', 'pt-BR'] } });
  });

  it('GET /api/export and /api/export/:lang return the export document of approved translations', async () => {
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { key: 'Hello', value: 'Bonjour' },
        { key: 'Pending one', value: 'En attente' },
      ],
    });
    await h.client.post('/api/translations', {
      lang: 'de',
      translations: [{ key: 'Hello', value: 'Hallo' }],
    });
    const all = await h.client.get('/api/export');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      languages: ['fr', 'de', 'pt-BR'],
      languageNames: { fr: 'French', de: 'German', 'pt-BR': 'Portuguese (Brazil)' },
      translations: {
        fr: [{ key: 'Hello', context: '', value: 'Bonjour' }],
        de: [{ key: 'Hello', context: '', value: 'Hallo' }],
        'pt-BR': [],
      },
      timestamp: expect.any(Number),
    });
    const one = await h.client.get('/api/export/de');
    expect(one.body).toEqual({
      languages: ['de'],
      languageNames: { de: 'German' },
      translations: { de: [{ key: 'Hello', context: '', value: 'Hallo' }] },
      timestamp: expect.any(Number),
    });
    const unknown = await h.client.get('/api/export/it');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown_language');
    expect((await h.client.get('/api/export/not-a-language!')).status).toBe(400);
  });
});
