import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } });
  await h.client.post('/api/textnodes', {
    keys: [{ key: 'Saved.' }, { key: 'Call us' }, { key: 'Add to shopping cart' }, { key: 'Welcome' }],
    url: 'https://shop.test/',
  });
  const rows = (await h.client.get('/api/translations/all?limit=100')).body.rows as Array<{ id: number }>;
  await h.client.patch('/api/textnodes/status', { ids: rows.map((row) => row.id), status: 'approved' });
  const saved = await h.client.post('/api/translations', {
    lang: 'fr',
    translations: [
      { key: 'Saved.', value: 'Enregistré' },
      { key: 'Call us', value: 'Appelez le 3615' },
      { key: 'Add to shopping cart', value: 'Panier' },
      { key: 'Welcome', value: 'Bienvenue' },
    ],
  });
  expect(saved.status).toBe(200);
  await h.client.post('/api/translations', {
    lang: 'de',
    translations: [{ key: 'Saved.', value: 'Gespeichert.' }],
  });
});
afterAll(async () => h?.stop());

interface Row {
  key: string;
  checks: Array<{ check: string; message: string }>;
}

describe('quality checks', () => {
  it('lists what each translation fails in the dashboard list, nothing for a faithful one or none', async () => {
    const fr = (await h.client.get('/api/translations/all?lang=fr&limit=100')).body.rows as Row[];
    const checksOf = (rows: Row[], key: string) => rows.find((row) => row.key === key)!.checks;
    expect(checksOf(fr, 'Saved.')).toEqual([
      { check: 'end_punctuation', message: 'The source ends with “.”; the translation without a mark.' },
    ]);
    expect(checksOf(fr, 'Call us').map((c) => c.check)).toEqual(['numbers']);
    expect(checksOf(fr, 'Add to shopping cart')).toEqual([
      { check: 'length', message: 'The translation is 30 % of the length of the source.' },
    ]);
    expect(checksOf(fr, 'Welcome')).toEqual([]);
    const de = (await h.client.get('/api/translations/all?lang=de&limit=100')).body.rows as Row[];
    expect(checksOf(de, 'Saved.')).toEqual([]);
    expect(checksOf(de, 'Welcome')).toEqual([]);
  });

  it('scores the project on Analytics: overall, per check and per language', async () => {
    const quality = await h.client.get('/api/analytics/quality');
    expect(quality.status).toBe(200);
    expect(quality.body).toEqual({
      checked: 5,
      passing: 2,
      score: 40,
      byCheck: [
        { check: 'numbers', failing: 1 },
        { check: 'leading_space', failing: 0 },
        { check: 'trailing_space', failing: 0 },
        { check: 'end_punctuation', failing: 1 },
        { check: 'length', failing: 1 },
        { check: 'glossary', failing: 0 },
      ],
      byLanguage: [
        { lang: 'fr', checked: 4, passing: 1, score: 25 },
        { lang: 'de', checked: 1, passing: 1, score: 100 },
      ],
    });
  });

  it('follows edits, and leaves out phrases no longer approved', async () => {
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Saved.', value: 'Enregistré.' }],
    });
    const rows = (await h.client.get('/api/translations/all?limit=100')).body.rows as Array<{
      id: number;
      key: string;
    }>;
    const call = rows.find((row) => row.key === 'Call us')!;
    await h.client.patch('/api/textnodes/status', { ids: [call.id], status: 'trash' });
    const quality = (await h.client.get('/api/analytics/quality')).body;
    expect([quality.checked, quality.passing, quality.score]).toEqual([4, 3, 75]);
  });
});
