// The glossary over the real server: its terms, the check every translation gets against them (list
// rows and the Analytics score), and the terms an AI job is told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-test' });
  h = await startHarness({ ai: { baseUrl: fake.baseUrl, batchSize: 10, parallelCalls: 1, backoffMs: 5 } });
  await h.client.patch('/api/project/settings', {
    settings: { languages: ['fr', 'de'], translationProviderApiKey: 'sk-test' },
  });
  await h.client.post('/api/textnodes', {
    url: 'https://bakery.test/',
    keys: [{ key: 'Fresh bread every morning' }, { key: 'Welcome to Bakery Co' }, { key: 'Opening hours' }],
  });
  const rows = (await h.client.get('/api/translations/all?limit=10')).body.rows as { id: number }[];
  await h.client.patch('/api/textnodes/status', { ids: rows.map((row) => row.id), status: 'approved' });
});
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});

describe('glossary', () => {
  it('keeps terms per language or for every language, and refuses what it cannot use', async () => {
    const bread = await h.client.post('/api/glossary', { term: ' bread ', lang: 'fr', translation: 'pain' });
    expect(bread.status).toBe(201);
    expect(bread.body).toMatchObject({
      lang: 'fr',
      term: 'bread',
      translation: 'pain',
      doNotTranslate: false,
      caseSensitive: false,
      note: '',
    });
    const brand = await h.client.post('/api/glossary', {
      term: 'Bakery Co',
      doNotTranslate: true,
      caseSensitive: true,
      note: 'Our name',
    });
    expect(brand.body).toMatchObject({ lang: null, translation: null, doNotTranslate: true });

    const missing = await h.client.post('/api/glossary', { term: 'cart', lang: 'fr' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({
      translation: 'is required unless the term is do-not-translate',
    });
    const twice = await h.client.post('/api/glossary', {
      term: 'BREAD',
      lang: 'fr',
      translation: 'baguette',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({
      code: 'term_exists',
      fields: { term: 'is already in the glossary' },
    });
    // The same term for another language is another entry.
    expect(
      (await h.client.post('/api/glossary', { term: 'bread', lang: 'de', translation: 'Brot' })).status,
    ).toBe(201);
    const unknown = await h.client.post('/api/glossary', { term: 'x', lang: 'es', translation: 'y' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('unknown_language');

    const french = (await h.client.get('/api/glossary?lang=fr')).body as { term: string }[];
    expect(french.map((term) => term.term)).toEqual(['Bakery Co', 'bread']);
    expect((await h.client.get('/api/glossary')).body).toHaveLength(3);

    const changed = await h.client.patch(`/api/glossary/${bread.body.id}`, { note: 'Any kind' });
    expect(changed.body).toMatchObject({ term: 'bread', translation: 'pain', note: 'Any kind' });
    const other = await h.newProject();
    expect((await other.client.patch(`/api/glossary/${bread.body.id}`, { note: 'x' })).status).toBe(404);
    expect((await other.client.delete(`/api/glossary/${bread.body.id}`)).status).toBe(404);
    expect((await other.client.get('/api/glossary')).body).toEqual([]);
  });

  it('flags translations that do not follow it, in the list rows and in the Analytics score', async () => {
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { key: 'Fresh bread every morning', value: 'Baguette fraîche chaque matin' },
        { key: 'Welcome to Bakery Co', value: 'Bienvenue chez Bakery Co' },
        { key: 'Opening hours', value: 'Horaires' },
      ],
    });
    await h.client.post('/api/translations', {
      lang: 'de',
      translations: [{ key: 'Fresh bread every morning', value: 'Frisches Brot jeden Morgen' }],
    });
    const rows = (await h.client.get('/api/translations/all?lang=fr&limit=10')).body.rows as {
      key: string;
      checks: { check: string; message: string }[];
    }[];
    const checks = Object.fromEntries(rows.map((row) => [row.key, row.checks]));
    expect(checks['Fresh bread every morning']).toEqual([
      { check: 'glossary', message: 'The glossary says: “bread” is “pain”.' },
    ]);
    expect(checks['Welcome to Bakery Co']).toEqual([]);

    const quality = (await h.client.get('/api/analytics/quality')).body;
    expect(quality.byCheck).toContainEqual({ check: 'glossary', failing: 1 });
    expect(quality.byLanguage).toContainEqual({ lang: 'de', checked: 1, passing: 1, score: 100 });
  });

  it('tells an AI job the terms its texts use', async () => {
    await h.client.post('/api/textnodes', {
      url: 'https://bakery.test/',
      keys: [{ key: 'Bakery Co bread' }],
    });
    const [row] = (await h.client.get('/api/translations/all?search=Bakery%20Co%20bread')).body.rows as {
      id: number;
    }[];
    await h.client.patch('/api/textnodes/status', { ids: [row!.id], status: 'approved' });
    fake.requests.length = 0;
    const started = await h.client.post('/api/ai-jobs', { key_ids: [row!.id], lang: 'fr' });
    expect(started.status).toBe(202);
    for (let tries = 0; tries < 150; tries++) {
      const job = await h.client.get(`/api/ai-jobs/${started.body.jobId}`);
      if (job.body.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const system = fake.requests[0]!.messages.find((message) => message.role === 'system')!.content;
    expect(system).toContain(
      'Glossary of this product: follow it wherever a term appears.\n' +
        '- "Bakery Co": keep it exactly as it is (do not translate)\n' +
        '- "bread": translate it as "pain"',
    );
  });

  it('removes a term', async () => {
    const [term] = (await h.client.get('/api/glossary?lang=de')).body as { id: number; term: string }[];
    expect((await h.client.delete(`/api/glossary/${term!.id}`)).body).toEqual({ ok: true });
    expect((await h.client.delete(`/api/glossary/${term!.id}`)).status).toBe(404);
  });
});
