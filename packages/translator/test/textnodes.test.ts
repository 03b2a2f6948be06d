import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } });
});
afterAll(async () => h?.stop());
beforeEach(async () => {
  await h.client.post('/api/project/reset-database');
});

const register = (keys: { key: string; context?: string }[], url = 'https://shop.test/') =>
  h.client.post('/api/textnodes', { keys, url });

async function idsByKey(): Promise<Record<string, number>> {
  const res = await h.client.get('/api/translations/all?limit=500');
  return Object.fromEntries(
    res.body.rows.map((row: { key: string; context: string; id: number }) => [
      row.key + (row.context ? `|${row.context}` : ''),
      row.id,
    ]),
  );
}

describe('POST /api/textnodes', () => {
  it('creates new phrases as pending, counts only new ones and maps concrete keys to slot patterns', async () => {
    const first = await register([
      { key: 'Hello' },
      { key: 'You have 3 items' },
      { key: 'Hello', context: 'nav' },
    ]);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      ok: true,
      registered: 3,
      keyMap: { 'You have 3 items': 'You have {{number:0}} items' },
    });
    const again = await register(
      [{ key: 'Hello' }, { key: 'You have 7 items' }, { key: 'Welcome' }],
      'https://shop.test/cart',
    );
    expect(again.body).toEqual({
      ok: true,
      registered: 1,
      keyMap: { 'You have 7 items': 'You have {{number:0}} items' },
    });
    expect((await h.client.get('/api/translations/counts')).body).toEqual({
      pending: 4,
      approved: 0,
      trash: 0,
    });
    const list = await h.client.get('/api/translations/all?search=items');
    expect(list.body.rows).toEqual([
      expect.objectContaining({
        key: 'You have {{number:0}} items',
        context: '',
        status: 'pending',
        varSlots: [{ type: 'number', index: 0 }],
        urls: ['https://shop.test/', 'https://shop.test/cart'],
      }),
    ]);
  });

  it('keeps the words of a phrase’s text slots, when there is one for each slot, for the reviewers', async () => {
    const slotsOf = async (key: string) =>
      (await h.client.get(`/api/translations/all?search=${encodeURIComponent(key)}`)).body.rows[0].slotTexts;
    await h.client.post('/api/textnodes', {
      keys: [
        { key: 'Made with {{text:0}} and {{text:1}}', slots: ['organic flour', 'spring water'] },
        // One word for two slots: not kept.
        { key: 'Sold in {{text:0}} and {{text:1}}', slots: ['Paris'] },
        { key: 'Baked at {{text:0}}' },
      ],
    });
    expect(await slotsOf('Made with')).toEqual(['organic flour', 'spring water']);
    expect(await slotsOf('Sold in')).toEqual([]);
    expect(await slotsOf('Baked at')).toEqual([]);
    // A phrase registered before learns its words when a page reports them; they do not change after.
    await h.client.post('/api/textnodes', { keys: [{ key: 'Baked at {{text:0}}', slots: ['dawn'] }] });
    await h.client.post('/api/textnodes', { keys: [{ key: 'Baked at {{text:0}}', slots: ['noon'] }] });
    expect(await slotsOf('Baked at')).toEqual(['dawn']);
  });

  it('accepts 1,000 keys in one call and refuses 1,001 with nothing written', async () => {
    const keys = Array.from({ length: 1000 }, (_, i) => ({
      key: `Phrase number ${String.fromCharCode(97 + (i % 26))} ${i}`,
    }));
    const ok = await register(keys);
    expect(ok.status).toBe(200);
    expect(ok.body.registered).toBeGreaterThan(0);
    await h.client.post('/api/project/reset-database');
    const tooMany = await register([...keys, { key: 'one more' }]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('invalid_request');
    expect(tooMany.body.error.message).toMatch(/keys/);
    expect((await h.client.get('/api/translations/counts')).body.pending).toBe(0);
  });

  it('rejects bad bodies with 400, a clear message, and writes nothing', async () => {
    const cases = [
      { keys: [{ key: 'fine' }, { key: '' }], url: 'https://x.test/' },
      { keys: [{ key: 'fine' }, { context: 'no key' }] },
      { keys: 'Hello' },
      {},
    ];
    for (const body of cases) {
      const res = await h.client.post('/api/textnodes', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/Invalid body/),
      });
    }
    const notJson = await h.client.post('/api/textnodes', '{"keys": [', {
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect((await h.client.get('/api/translations/counts')).body.pending).toBe(0);
  });

  it('refuses an oversized body with 413', async () => {
    const res = await h.client.post('/api/textnodes', { keys: [{ key: 'x'.repeat(6 * 1024 * 1024) }] });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('counts a phrase registered by concurrent calls once', async () => {
    const keys = Array.from({ length: 50 }, (_, i) => ({
      key: `Concurrent phrase ${String.fromCharCode(97 + (i % 26))}${i}`,
    }));
    const results = await Promise.all([
      register(keys, 'https://a.test/'),
      register(keys, 'https://b.test/'),
      register(keys),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.reduce((sum, r) => sum + r.body.registered, 0)).toBe(50);
    expect((await h.client.get('/api/translations/counts')).body.pending).toBe(50);
  });
});

describe('phrase review', () => {
  it('PATCH /api/textnodes/status moves phrases in bulk and validates the status', async () => {
    await register([{ key: 'One' }, { key: 'Two' }, { key: 'Three' }]);
    const ids = await idsByKey();
    const res = await h.client.patch('/api/textnodes/status', {
      ids: [ids.One, ids.Two],
      status: 'approved',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, updated: 2 });
    await h.client.patch('/api/textnodes/status', { ids: [ids.Three], status: 'trash' });
    expect((await h.client.get('/api/translations/counts')).body).toEqual({
      pending: 0,
      approved: 2,
      trash: 1,
    });
    const bad = await h.client.patch('/api/textnodes/status', { ids: [ids.One], status: 'done' });
    expect(bad.status).toBe(400);
    const noIds = await h.client.patch('/api/textnodes/status', { status: 'approved' });
    expect(noIds.status).toBe(400);
  });

  it('GET /api/textnodes/untranslated-ids lists approved phrases without a translation', async () => {
    await register([{ key: 'Cat' }, { key: 'Dog' }, { key: 'Bird' }]);
    const ids = await idsByKey();
    await h.client.patch('/api/textnodes/status', { ids: [ids.Cat, ids.Dog], status: 'approved' });
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Cat', context: '', value: 'Chat' }],
    });
    const res = await h.client.get('/api/textnodes/untranslated-ids?lang=fr');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ids: [ids.Dog], total: 1 });
    expect((await h.client.get('/api/textnodes/untranslated-ids?lang=de')).body.total).toBe(2);
    expect((await h.client.get('/api/textnodes/untranslated-ids')).status).toBe(400);
    expect((await h.client.get('/api/textnodes/untranslated-ids?lang=not a lang')).status).toBe(400);
  });

  it('bulk-delete and delete remove phrases with their translations', async () => {
    await register([{ key: 'Red' }, { key: 'Green' }, { key: 'Blue' }]);
    const ids = await idsByKey();
    await h.client.patch('/api/textnodes/status', { ids: Object.values(ids), status: 'approved' });
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [
        { key: 'Red', value: 'Rouge' },
        { key: 'Green', value: 'Vert' },
        { key: 'Blue', value: 'Bleu' },
      ],
    });
    const bulk = await h.client.post('/api/textnodes/bulk-delete', { ids: [ids.Red, ids.Green, 999_999] });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual({ ok: true, deleted: 2 });
    const one = await h.client.delete(`/api/textnodes/${ids.Blue}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ok: true, deleted: 1 });
    expect((await h.client.get('/api/translations?lang=fr')).body).toEqual([]);
    const summary = await h.translator.ctx.db
      .selectFrom('translations')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(summary.n)).toBe(0);
    const gone = await h.client.delete(`/api/textnodes/${ids.Blue}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    expect((await h.client.delete('/api/textnodes/abc')).status).toBe(400);
  });

  it('PATCH /api/phrases/:id edits key and slots, checks them, and refuses duplicates', async () => {
    await register([{ key: 'Buy now' }, { key: 'Buy later' }]);
    const ids = await idsByKey();
    const res = await h.client.patch(`/api/phrases/${ids['Buy now']}`, {
      key: 'Buy {{text:0}} now',
      varSlots: [{ type: 'text', index: 0 }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: ids['Buy now'],
      key: 'Buy {{text:0}} now',
      context: '',
      status: 'pending',
      varSlots: [{ type: 'text', index: 0 }],
    });
    const mismatch = await h.client.patch(`/api/phrases/${ids['Buy now']}`, {
      key: 'Buy {{text:0}} now',
      varSlots: [],
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error).toMatchObject({
      code: 'validation_failed',
      fields: { varSlots: expect.any(String) },
    });
    const duplicate = await h.client.patch(`/api/phrases/${ids['Buy later']}`, { key: 'Buy {{text:0}} now' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('conflict');
    expect((await h.client.patch('/api/phrases/999999', { key: 'x' })).status).toBe(404);
    expect(
      (
        await h.client.patch(`/api/phrases/${ids['Buy later']}`, {
          varSlots: [{ type: 'Bad Type', index: 0 }],
        })
      ).status,
    ).toBe(400);
  });

  it('POST /api/textnodes/clear-pending deletes pending phrases only', async () => {
    await register([{ key: 'Keep me' }, { key: 'Drop me' }, { key: 'Drop me too' }]);
    const ids = await idsByKey();
    await h.client.patch('/api/textnodes/status', { ids: [ids['Keep me']], status: 'approved' });
    const res = await h.client.post('/api/textnodes/clear-pending');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, deleted: 2 });
    expect((await h.client.get('/api/translations/counts')).body).toEqual({
      pending: 0,
      approved: 1,
      trash: 0,
    });
  });

  it('another project’s key cannot touch this project’s phrases', async () => {
    await register([{ key: 'Private' }]);
    const ids = await idsByKey();
    const other = await h.newProject('Intruder');
    expect(
      (await other.client.patch('/api/textnodes/status', { ids: [ids.Private], status: 'approved' })).body
        .updated,
    ).toBe(0);
    expect((await other.client.delete(`/api/textnodes/${ids.Private}`)).status).toBe(404);
    expect((await other.client.post('/api/textnodes/bulk-delete', { ids: [ids.Private] })).body.deleted).toBe(
      0,
    );
    expect((await other.client.patch(`/api/phrases/${ids.Private}`, { key: 'Hacked' })).status).toBe(404);
    expect((await other.client.get('/api/translations/all')).body.total).toBe(0);
    await other.client.post('/api/project/reset-database');
    expect((await h.client.get('/api/translations/counts')).body.pending).toBe(1);
  });
});
