import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../src/common/time.ts';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
let ids: Record<string, number> = {};

beforeAll(async () => {
  h = await startHarness();
  await h.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de', 'es'] } });
  await h.client.post('/api/textnodes', {
    keys: [{ key: 'Home' }, { key: 'About us' }, { key: 'You have 3 messages' }, { key: 'Contact' }],
    url: 'https://site.test/',
  });
  await h.client.post('/api/textnodes', {
    keys: [{ key: 'Home' }, { key: 'Pricing' }],
    url: 'https://site.test/pricing',
  });
  await h.client.post('/api/textnodes', { keys: [{ key: 'Old stuff' }], url: 'https://site.test/old_%page' });
  const rows = (await h.client.get('/api/translations/all?limit=100')).body.rows as {
    id: number;
    key: string;
  }[];
  ids = Object.fromEntries(rows.map((row) => [row.key, row.id]));
  await h.client.patch('/api/textnodes/status', {
    ids: [ids.Home, ids['About us'], ids['You have {{number:0}} messages'], ids.Pricing],
    status: 'approved',
  });
  await h.client.patch('/api/textnodes/status', { ids: [ids['Old stuff']], status: 'trash' });
  await h.client.post('/api/translations', {
    lang: 'fr',
    translations: [
      { key: 'Home', value: 'Accueil' },
      { key: 'About us', value: 'À propos' },
      { key: 'Contact', value: 'Contact' },
    ],
  });
  await h.client.post('/api/translations', { lang: 'de', translations: [{ key: 'Home', value: 'Start' }] });
});
afterAll(async () => h?.stop());

describe('analytics', () => {
  it('GET /api/analytics sums up the project', async () => {
    const res = await h.client.get('/api/analytics');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      totalPhrases: 6,
      approvedPhrases: 4,
      pendingPhrases: 1,
      trashPhrases: 1,
      uniqueUrls: 3,
      totalTranslations: 4,
      languageCount: 3,
      phrasesWithSlots: 1,
    });
  });

  it('GET /api/analytics/languages gives coverage of approved phrases per language', async () => {
    const res = await h.client.get('/api/analytics/languages');
    expect(res.body).toEqual([
      { lang: 'fr', translated: 2, coverage: 50 },
      { lang: 'de', translated: 1, coverage: 25 },
      { lang: 'es', translated: 0, coverage: 0 },
    ]);
  });

  it('GET /api/analytics/urls lists pages with counts, searchable and paged', async () => {
    const res = await h.client.get('/api/analytics/urls');
    expect(res.body).toEqual({
      total: 3,
      rows: [
        { url: 'https://site.test/', onAllowedOrigin: false, phraseCount: 4, approved: 3, pending: 1 },
        { url: 'https://site.test/pricing', onAllowedOrigin: false, phraseCount: 2, approved: 2, pending: 0 },
        {
          url: 'https://site.test/old_%page',
          onAllowedOrigin: false,
          phraseCount: 1,
          approved: 0,
          pending: 0,
        },
      ],
    });
    expect((await h.client.get('/api/analytics/urls?search=PRICING')).body).toEqual({
      total: 1,
      rows: [
        { url: 'https://site.test/pricing', onAllowedOrigin: false, phraseCount: 2, approved: 2, pending: 0 },
      ],
    });
    expect((await h.client.get('/api/analytics/urls?search=_%25')).body.total).toBe(1);
    const paged = await h.client.get('/api/analytics/urls?limit=1&offset=1');
    expect(paged.body).toEqual({
      total: 3,
      rows: [expect.objectContaining({ url: 'https://site.test/pricing' })],
    });
    expect((await h.client.get('/api/analytics/urls?limit=0')).status).toBe(400);
    expect((await h.client.get('/api/analytics/urls?offset=-1')).status).toBe(400);
  });

  it('GET /api/analytics/url-detail gives one page’s counts and its pending phrase ids', async () => {
    const res = await h.client.get(
      `/api/analytics/url-detail?url=${encodeURIComponent('https://site.test/')}`,
    );
    expect(res.body).toEqual({
      url: 'https://site.test/',
      onAllowedOrigin: false,
      totalPhrases: 4,
      approved: 3,
      pending: 1,
      pendingKeyIds: [ids.Contact],
    });
    const unknown = await h.client.get('/api/analytics/url-detail?url=https://nowhere.test/');
    expect(unknown.status).toBe(404);
    expect((await h.client.get('/api/analytics/url-detail')).status).toBe(400);
  });

  it('GET /api/analytics/activity lists the last 30 days with zeros', async () => {
    const { db } = h.translator.ctx;
    const fiveDaysAgo = dayOf(Date.now() - 5 * 86_400_000);
    const longAgo = dayOf(Date.now() - 45 * 86_400_000);
    await db
      .updateTable('phrases')
      .set({ first_seen_day: fiveDaysAgo })
      .where('id', 'in', [ids.Home!, ids.Pricing!])
      .execute();
    await db
      .updateTable('phrases')
      .set({ first_seen_day: longAgo })
      .where('id', '=', ids['Old stuff']!)
      .execute();
    const res = await h.client.get('/api/analytics/activity');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(30);
    expect(res.body[29]).toEqual({ day: dayOf(), count: 3 });
    expect(res.body[24]).toEqual({ day: fiveDaysAgo, count: 2 });
    expect(res.body.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(5);
    const days = res.body.map((d: { day: string }) => d.day);
    expect([...days].sort()).toEqual(days);
    expect(new Set(days).size).toBe(30);
  });

  it('GET /api/analytics/phrase-detail shows a phrase with every translation', async () => {
    const res = await h.client.get(`/api/analytics/phrase-detail?id=${ids.Home}`);
    expect(res.body).toEqual({
      id: ids.Home,
      key: 'Home',
      context: '',
      status: 'approved',
      translations: [
        { lang: 'de', value: 'Start' },
        { lang: 'fr', value: 'Accueil' },
      ],
    });
    expect((await h.client.get('/api/analytics/phrase-detail?id=999999')).status).toBe(404);
    expect((await h.client.get('/api/analytics/phrase-detail?id=abc')).status).toBe(400);
    const other = await h.newProject('Analytics neighbour');
    expect((await other.client.get(`/api/analytics/phrase-detail?id=${ids.Home}`)).status).toBe(404);
    expect((await other.client.get('/api/analytics')).body.totalPhrases).toBe(0);
    expect(
      (await other.client.get('/api/analytics/activity')).body.every((d: { count: number }) => d.count === 0),
    ).toBe(true);
  });
});
