import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect, TestClient, upgradedFromFixture, type TestDatabase } from '@app/server-kit/testing';
import { translatorMigrations } from '../migrations/index.ts';
import { buildTranslator, type Translator } from '../src/app.ts';
import { translatorDbTarget } from '../src/db/store.ts';
import { testConfig } from './helpers.ts';

const FIXTURE = new URL('./fixtures/upgrade-first-schema.sql', import.meta.url).pathname;
const API_KEY = 'UpgradeFixtureKey0123456';

// A database the first release filled (the fixture), upgraded by `translator db migrate`'s code path,
// then served by today's API: the project, its phrases, translations, prompts and AI jobs.
describe(`upgrade from the first schema (${testDialect()})`, () => {
  let database: TestDatabase;
  let translator: Translator;
  let api: TestClient;
  let migrated: string[] = [];

  beforeAll(async () => {
    // Serving does not migrate again: MIGRATE_ON_START=false starts only on an up-to-date database.
    const config = (test: TestDatabase) => testConfig(test, { migrateOnStart: false });
    ({ database, migrated } = await upgradedFromFixture(FIXTURE, (test) => translatorDbTarget(config(test))));
    translator = await buildTranslator(config(database), { workers: false });
    api = new TestClient(`${await translator.listen()}/api`);
    api.defaultHeaders['x-api-key'] = API_KEY;
  });
  afterAll(async () => {
    await translator?.close();
    await database?.drop();
  });

  it('db migrate applied every migration after the fixture', () => {
    // The fixture holds the first migration; every later one is applied.
    const later = Object.keys(translatorMigrations('sqlite')).slice(1);
    expect(migrated).toContain(`Applied ${later.length} migration(s): ${later.join(', ')}`);
  });

  it("the project's API key authenticates; its settings and a new page key are there", async () => {
    const project = (await api.get('/project')).body;
    expect(project).toMatchObject({ name: 'Legacy shop' });
    expect(JSON.stringify(project)).toContain('"languages":["de","fr"]');
    expect(JSON.stringify(project)).toMatch(/tpk_[\w-]{24}/);
  });

  it('approved translations are served; the dashboard list has every phrase with its URL', async () => {
    const served = await api.get('/translations?lang=de');
    expect(served.status).toBe(200);
    expect(JSON.stringify(served.body)).toContain('In den Warenkorb');
    expect(JSON.stringify(served.body)).not.toContain('Zur Kasse');
    const all = (await api.get('/translations/all?lang=de')).body as {
      rows: { key: string; status: string; value: string; state: string; urls: string[] }[];
    };
    // Nothing recorded who wrote them: they become human, which no AI job overwrites.
    expect(all.rows.map((row) => [row.key, row.status, row.value, row.state]).sort()).toEqual([
      ['Add to cart', 'approved', 'In den Warenkorb', 'human'],
      ['Checkout', 'pending', 'Zur Kasse', 'human'],
    ]);
    expect(all.rows.find((row) => row.key === 'Add to cart')!.urls).toEqual([
      'https://shop.example.test/cart',
    ]);
  });

  it('prompts and AI jobs read back', async () => {
    expect(JSON.stringify((await api.get('/prompts')).body)).toContain('Translate for an online shop.');
    const job = await api.get('/ai-jobs/5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f');
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ status: 'completed', total: 1, completed: 1 });
  });
});
