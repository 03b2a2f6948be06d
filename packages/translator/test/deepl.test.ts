// AI jobs of a project that chose DeepL, against the fake of DeepL's API: slots survive as XML tags,
// the documented refusals end the job with DeepL's words, and the setting is per project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDeepL, type FakeDeepL } from '@app/fakes/deepl';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
let deepl: FakeDeepL;

beforeAll(async () => {
  deepl = await startFakeDeepL({ authKey: 'key-1:fx' });
  // The OpenAI-compatible engine points nowhere: a job reaching it would fail.
  h = await startHarness({
    ai: { baseUrl: 'http://127.0.0.1:9/v1', deeplBaseUrl: deepl.baseUrl, batchSize: 60, backoffMs: 5 },
  });
  const settings = await h.client.patch('/api/project/settings', {
    settings: { languages: ['fr', 'pt'], translationProviderApiKey: 'key-1:fx', translationEngine: 'deepl' },
  });
  expect(settings.body.settings.translationEngine).toBe('deepl');
});
afterAll(async () => {
  await h?.stop();
  await deepl?.close();
});

async function approvedPhrases(keys: string[]) {
  await h.client.post('/api/textnodes', { url: 'https://bakery.test/', keys: keys.map((key) => ({ key })) });
  const rows = (await h.client.get('/api/translations/all?limit=500')).body.rows as {
    id: number;
    key: string;
  }[];
  const ids = rows
    .filter((row) => keys.some((key) => row.key.startsWith(key.slice(0, 12))))
    .map((row) => row.id);
  await h.client.patch('/api/textnodes/status', { ids, status: 'approved' });
  return ids;
}

async function finished(jobId: string) {
  for (;;) {
    const job = (await h.client.get(`/api/ai-jobs/${jobId}`)).body;
    if (!['pending', 'running'].includes(job.status)) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('DeepL as the translation engine', () => {
  it('translates a job with DeepL: slots as tags, 50 texts a call at most, the key and language as DeepL wants', async () => {
    const keys = Array.from(
      { length: 55 },
      (_, i) =>
        `Loaf ${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))} & co costs 4 euros`,
    );
    const ids = await approvedPhrases(keys);
    expect(ids).toHaveLength(55);
    const started = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'pt' });
    expect(started.status).toBe(202);
    expect(await finished(started.body.jobId)).toMatchObject({
      status: 'completed',
      completed: 55,
      failed: 0,
    });

    const calls = deepl.requests.filter((request) => request.status === 200);
    expect(calls.map((call) => (call.body.text as string[]).length)).toEqual([50, 5]);
    expect(calls[0]).toMatchObject({
      authorization: 'DeepL-Auth-Key key-1:fx',
      body: { target_lang: 'PT-PT', tag_handling: 'xml', ignore_tags: ['x'] },
    });
    expect((calls[0]!.body.text as string[])[0]).toMatch(
      /^Loaf [a-z]{2} &amp; co costs <x id="number-0"\/> euros$/,
    );
    const rows = (await h.client.get('/api/translations/all?lang=pt&limit=100&search=Loaf')).body.rows as {
      key: string;
      value: string;
      state: string;
    }[];
    expect(rows).toHaveLength(55);
    for (const row of rows) expect(row).toMatchObject({ value: `[PT-PT] ${row.key}`, state: 'machine' });
  });

  it('ends a job with DeepL’s words when the quota is used up, and retries a 429', async () => {
    const [id] = await approvedPhrases(['Sourdough of the week']);
    deepl.set({ tooManyNext: 1 });
    const retried = await h.client.post('/api/ai-jobs', { key_ids: [id], lang: 'fr' });
    expect(await finished(retried.body.jobId)).toMatchObject({ status: 'completed', completed: 1 });

    deepl.set({ quotaExceeded: true });
    const [other] = await approvedPhrases(['Rye loaf of the day']);
    const refused = await h.client.post('/api/ai-jobs', { key_ids: [other], lang: 'fr' });
    const job = await finished(refused.body.jobId);
    expect(job.status).toBe('failed');
    expect(job.error).toContain('Quota exceeded');
    deepl.set({ quotaExceeded: false });
  });

  it('refuses an engine it does not know', async () => {
    const wrong = await h.client.patch('/api/project/settings', {
      settings: { translationEngine: 'babelfish' },
    });
    expect(wrong.status).toBe(400);
    expect((await h.client.get('/api/project')).body.settings.translationEngine).toBe('deepl');
  });
});
