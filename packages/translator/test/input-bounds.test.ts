import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

// Every integer a client sends (query, path or body) is bounded by its schema: a value past 2^63 or
// below the range is a 400 in the error envelope, never a database error answered as a 500.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.client.patch('/api/project/settings', { settings: { languages: ['fr'] } });
  await h.client.post('/api/textnodes', { keys: [{ key: 'Hello' }], url: 'https://a.test/' });
});
afterAll(async () => h?.stop());

const HUGE = ['99999999999999999999', '9223372036854775808', '2147483648000'];
const NEGATIVE = ['-1', '-99999999999999999999'];

function expectRefused(res: { status: number; body: unknown }, field: string) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    error: { code: 'invalid_request', message: expect.any(String), fields: { [field]: expect.any(String) } },
  });
}

describe('integer parameters are bounded', () => {
  it.each([...HUGE, ...NEGATIVE])('GET /api/analytics/urls?offset=%s is 400', async (value) => {
    expectRefused(await h.client.get(`/api/analytics/urls?offset=${value}`), 'offset');
  });

  it.each([...HUGE, ...NEGATIVE, '0'])('GET /api/analytics/urls?limit=%s is 400', async (value) => {
    expectRefused(await h.client.get(`/api/analytics/urls?limit=${value}`), 'limit');
  });

  it.each([...HUGE, ...NEGATIVE, '0'])('GET /api/translations/all?page=%s is 400', async (value) => {
    expectRefused(await h.client.get(`/api/translations/all?page=${value}`), 'page');
  });

  it.each([...HUGE, ...NEGATIVE, '0'])('GET /api/translations/all?limit=%s is 400', async (value) => {
    expectRefused(await h.client.get(`/api/translations/all?limit=${value}`), 'limit');
  });

  it.each([...HUGE, ...NEGATIVE, '0'])('GET /api/analytics/phrase-detail?id=%s is 400', async (value) => {
    expectRefused(await h.client.get(`/api/analytics/phrase-detail?id=${value}`), 'id');
  });

  it.each([...HUGE, ...NEGATIVE])('path ids such as DELETE /api/textnodes/%s are 400', async (value) => {
    expectRefused(await h.client.delete(`/api/textnodes/${value}`), 'id');
    expectRefused(await h.client.delete(`/api/translations/${value}`), 'id');
    expectRefused(await h.client.patch(`/api/phrases/${value}`, { key: 'x' }), 'id');
  });

  it.each([...HUGE, ...NEGATIVE])('body ids of %s are 400', async (value) => {
    const id = Number(value);
    expectRefused(
      await h.client.post('/api/translations', { lang: 'fr', translations: [{ id, value: 'Bonjour' }] }),
      'translations.0.id',
    );
    expectRefused(await h.client.patch('/api/textnodes/status', { ids: [id], status: 'approved' }), 'ids.0');
    expectRefused(await h.client.post('/api/textnodes/bulk-delete', { ids: [id] }), 'ids.0');
    expectRefused(await h.client.post('/api/ai-jobs', { key_ids: [id], lang: 'fr' }), 'key_ids.0');
    expectRefused(
      await h.client.patch('/api/phrases/1', { varSlots: [{ type: 'number', index: id }] }),
      'varSlots.0.index',
    );
  });

  it('a page at the upper bound still answers (an empty page), and the largest offset too', async () => {
    const last = await h.client.get('/api/translations/all?page=1000000&limit=500');
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ rows: [], total: 1, page: 1000000, limit: 500 });
    const far = await h.client.get('/api/analytics/urls?offset=2147483647');
    expect(far.status).toBe(200);
    expect(far.body).toEqual({ total: 1, rows: [] });
  });

  it('a context depth past 2^63 is refused with a message, not a 500', async () => {
    const res = await h.client.request('PATCH', '/api/project/settings', {
      body: '{"settings":{"contextDepth":99999999999999999999}}',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ contextDepth: 'must be between 0 and 10' });
  });
});
