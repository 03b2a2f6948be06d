import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, testDialect } from '@app/server-kit/testing';
import { buildTranslator, type Translator } from '../src/app.ts';
import { startHarness, type Harness } from './helpers.ts';

// Two translator processes on one PostgreSQL schema, each with its own caches. Their caches are kept far
// longer than the test runs, so only the change notices (LISTEN/NOTIFY) can make the other process see a
// change: a regenerated key stops working there, and a translation reaches its delivery cache, at once.
// On SQLite there is one process per database file, so there is nothing to announce.
const SHOP = 'https://shop.example';

describe.runIf(testDialect() === 'postgres')('caches across processes', () => {
  let a: Harness;
  let b: Translator;
  let bUrl: string;

  beforeAll(async () => {
    a = await startHarness({ cacheTtlSeconds: 3600 });
    b = await buildTranslator(a.config, { workers: false });
    bUrl = await b.listen();
    await a.client.patch('/api/project/settings', {
      settings: { languages: ['fr'], allowedOrigins: [SHOP] },
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.stop();
  });

  /** A client of process B with `key` (and an Origin when given). */
  const onB = (key: string, origin?: string) => {
    const client = new TestClient(bUrl);
    client.defaultHeaders['x-api-key'] = key;
    if (origin) client.defaultHeaders.origin = origin;
    return client;
  };
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 5000, interval: 50 });

  it('a full key regenerated in one process stops working in the other at once', async () => {
    const mine = await a.newProject('Rotating');
    expect((await onB(mine.key).get('/api/languages')).status).toBe(200); // B has looked the key up
    const fresh = (await mine.client.post('/api/project/regenerate-key')).body.api_key as string;
    await eventually(async () => (await onB(mine.key).get('/api/languages')).status).toBe(401);
    expect((await onB(fresh).get('/api/languages')).status).toBe(200);
  });

  it('a page key regenerated in one process stops working in the other at once', async () => {
    const mine = await a.newProject('Rotating pages');
    await mine.client.patch('/api/project/settings', { settings: { allowedOrigins: [SHOP] } });
    const oldPageKey = (await mine.client.get('/api/project')).body.page_key as string;
    expect((await onB(oldPageKey, SHOP).get('/api/languages')).status).toBe(200);
    const fresh = (await mine.client.post('/api/project/regenerate-page-key')).body.page_key as string;
    await eventually(async () => (await onB(oldPageKey, SHOP).get('/api/languages')).status).toBe(401);
    expect((await onB(fresh, SHOP).get('/api/languages')).status).toBe(200);
  });

  it('an allowed origin added in one process is allowed by the other at once', async () => {
    const blog = 'https://blog.example';
    expect((await onB(a.pageKey, blog).get('/api/languages')).status).toBe(403);
    await a.client.patch('/api/project/settings', { settings: { allowedOrigins: [SHOP, blog] } });
    await eventually(async () => (await onB(a.pageKey, blog).get('/api/languages')).status).toBe(200);
  });

  it('a translation saved in one process reaches the other’s delivery cache at once', async () => {
    await a.client.post('/api/textnodes', { keys: [{ key: 'Checkout' }, { key: 'Basket' }] });
    const rows = (await a.client.get('/api/translations/all')).body.rows as { id: number; key: string }[];
    await a.client.patch('/api/textnodes/status', { ids: rows.map((row) => row.id), status: 'approved' });
    await a.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Checkout', value: 'Caisse' }],
    });
    const delivered = async () => (await onB(a.pageKey, SHOP).get('/api/translations?lang=fr')).body;
    await eventually(delivered).toEqual([{ key: 'Checkout', context: '', value: 'Caisse' }]);
    await a.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Basket', value: 'Panier' }],
    });
    await eventually(async () => (await delivered()).length).toBe(2);
    await a.client.post('/api/project/reset-database');
    await eventually(delivered).toEqual([]);
  });
});
