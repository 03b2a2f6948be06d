import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '@app/server-kit/testing';
import { startPrivatePostgres, type PrivatePostgres } from '@app/server-kit/testing/private-postgres';
import { expectOutageAnswered, outageDrill, pollReadiness } from '@app/server-kit/testing/outage-drill';
import { startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { buildTranslator, type Translator } from '../src/app.ts';
import { testConfig } from './helpers.ts';

/**
 * The translator on a PostgreSQL cluster of its own, stopped in the middle of an AI job and under load,
 * then started again: meanwhile every answer is a 503 in the envelope (or a cached delivery), the
 * translator recovers by itself, and the job ends once with every phrase translated once. It brings its
 * own PostgreSQL, so it runs in the default pass only.
 */
describe.skipIf(process.env.TEST_DATABASE_URL)('translator through a database outage', () => {
  let postgres: PrivatePostgres;
  let fake: FakeOpenAI;
  let translator: Translator;
  let client: TestClient;
  let dataDir: string;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    fake = await startFakeOpenAI({ apiKey: 'sk-test', latencyMs: 300 });
    dataDir = mkdtempSync(join(tmpdir(), 'outage-'));
    const config = testConfig(
      { url: postgres.url, dataDir, drop: async () => undefined },
      { ai: { baseUrl: fake.baseUrl, batchSize: 2, parallelCalls: 1, backoffMs: 50, leaseMs: 3000 } },
    );
    translator = await buildTranslator(config);
    client = new TestClient(await translator.listen());
    client.defaultHeaders['x-api-key'] = translator.defaultProject.project.api_key;
    await client.patch('/api/project/settings', {
      settings: { languages: ['fr'], translationProviderApiKey: 'sk-test' },
    });
  }, 60_000);
  afterAll(async () => {
    await translator?.close();
    await fake?.close();
    await postgres?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down, recovers, and finishes the AI job once', async () => {
    const keys = Array.from({ length: 12 }, (_, i) => ({ key: `Outage phrase ${'abcdefghijkl'[i]}` }));
    await client.post('/api/textnodes', { keys, url: 'https://shop.example/' });
    const ids = ((await client.get('/api/translations/all?limit=50')).body.rows as { id: number }[]).map(
      (row) => row.id,
    );
    await client.patch('/api/textnodes/status', { ids, status: 'approved' });
    const { jobId } = (await client.post('/api/ai-jobs', { key_ids: ids, lang: 'fr' })).body as {
      jobId: string;
    };

    const report = await outageDrill(postgres, {
      load: [
        () => client.get('/api/translations/all?lang=fr'),
        () => client.post('/api/textnodes', { keys: [{ key: 'Load phrase' }], url: 'https://shop.example/' }),
        // Last: the readiness probe, as an orchestrator polls it.
        () => pollReadiness(client, '/api/readyz'),
      ],
      // Down in the middle of the job: some batches answered and saved, some still to come.
      ready: () =>
        expect
          .poll(async () => (await client.get(`/api/ai-jobs/${jobId}`)).body.completed, { timeout: 20_000 })
          .toBeGreaterThanOrEqual(2),
    });
    expectOutageAnswered(report);

    let job: { status: string; completed: number; failed: number; total: number } | undefined;
    await expect
      .poll(
        async () => {
          job = (await client.get(`/api/ai-jobs/${jobId}`)).body;
          return job?.status;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe('completed');
    expect(job).toMatchObject({ total: ids.length, completed: ids.length, failed: 0 });
    const translated = (await client.get('/api/translations?lang=fr')).body as { key: string }[];
    expect(translated.filter((row) => row.key.startsWith('Outage phrase'))).toHaveLength(ids.length);
    // Each phrase was answered by the provider once: nothing was paid for twice.
    const answered = fake.requests
      .filter((request) => request.status === 200)
      .flatMap((request) => JSON.parse(request.messages.at(-1)!.content).items as { id: string }[])
      .map((item) => Number(item.id));
    expect(answered.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  }, 120_000);
});
