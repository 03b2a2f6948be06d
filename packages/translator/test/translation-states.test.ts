import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultBehaviour, startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { registerApproved, startHarness, type Harness } from './helpers.ts';

let h: Harness;
let fake: FakeOpenAI;
let ids: Record<string, number>;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-test' });
  h = await startHarness({ ai: { baseUrl: fake.baseUrl, batchSize: 10, parallelCalls: 1, backoffMs: 5 } });
});
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});

beforeEach(async () => {
  fake.set({ ...defaultBehaviour(), apiKey: 'sk-test' });
  await h.client.patch('/api/project/settings', {
    settings: { languages: ['fr'], translationProviderApiKey: 'sk-test', deliverReviewedOnly: false },
  });
  await h.client.post('/api/project/reset-database');
  ids = await registerApproved(h.client, ['Hello', 'Goodbye', 'Thanks']);
});

const save = (key: string, value: string, source?: 'import') =>
  h.client.post('/api/translations', {
    lang: 'fr',
    translations: [{ key, value }],
    ...(source ? { source } : {}),
  });

interface Row {
  id: number;
  key: string;
  value: string | null;
  translationId: number | null;
  state: string | null;
  suggestion: string | null;
}
const rowOf = async (key: string): Promise<Row> =>
  ((await h.client.get('/api/translations/all?lang=fr&limit=100')).body.rows as Row[]).find(
    (row) => row.key === key,
  )!;
const historyOf = async (key: string) => {
  const res = await h.client.get(`/api/translations/history?phrase_id=${ids[key]}&lang=fr`);
  expect(res.status).toBe(200);
  return res.body.entries as Record<string, unknown>[];
};
const delivered = async () =>
  ((await h.client.get('/api/translations?lang=fr')).body as { key: string; value: string }[]).map(
    (row) => `${row.key}=${row.value}`,
  );

async function runAiJob(keys: string[]) {
  const started = await h.client.post('/api/ai-jobs', { key_ids: keys.map((key) => ids[key]), lang: 'fr' });
  expect(started.status).toBe(202);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const job = (await h.client.get(`/api/ai-jobs/${started.body.jobId}`)).body;
    if (!['pending', 'running'].includes(job.status)) return { id: started.body.jobId as string, job };
    if (Date.now() > deadline) throw new Error(`AI job stuck: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('translation states', () => {
  it('an AI job leaves a human translation untouched, keeps its text as a suggestion, and fills the rest as machine', async () => {
    expect((await save('Hello', 'Salut (by hand)')).status).toBe(200);
    const { id: jobId, job } = await runAiJob(['Hello', 'Goodbye']);
    expect(job).toMatchObject({ status: 'completed', completed: 2, failed: 0 });

    expect(await rowOf('Hello')).toMatchObject({
      value: 'Salut (by hand)',
      state: 'human',
      suggestion: '[fr] Hello',
    });
    expect(await rowOf('Goodbye')).toMatchObject({
      value: '[fr] Goodbye',
      state: 'machine',
      suggestion: null,
    });
    expect(await historyOf('Hello')).toHaveLength(1);
    expect(await historyOf('Goodbye')).toEqual([
      expect.objectContaining({
        source: 'ai',
        actor: `ai-job:${jobId}`,
        oldValue: null,
        newState: 'machine',
      }),
    ]);
    expect(await delivered()).toEqual(['Hello=Salut (by hand)', 'Goodbye=[fr] Goodbye']);
  });

  it('a person’s save makes a machine translation human, which the next AI job no longer replaces', async () => {
    await runAiJob(['Goodbye']);
    await save('Goodbye', 'Au revoir');
    expect(await rowOf('Goodbye')).toMatchObject({ value: 'Au revoir', state: 'human' });
    fake.set({ translate: (text) => `again ${text}` });
    await runAiJob(['Goodbye', 'Thanks']);
    expect(await rowOf('Goodbye')).toMatchObject({ value: 'Au revoir', suggestion: 'again Goodbye' });
    expect(await rowOf('Thanks')).toMatchObject({ value: 'again Thanks', state: 'machine' });
  });

  it('a review makes translations reviewed, which AI jobs leave alone too; the list filters by state', async () => {
    await runAiJob(['Hello', 'Goodbye']);
    const hello = await rowOf('Hello');
    const reviewed = await h.client.patch('/api/translations/state', {
      ids: [hello.translationId],
      state: 'reviewed',
    });
    expect(reviewed.body).toEqual({ ok: true, updated: 1 });
    fake.set({ translate: (text) => `new ${text}` });
    await runAiJob(['Hello', 'Goodbye']);
    expect(await rowOf('Hello')).toMatchObject({ value: '[fr] Hello', state: 'reviewed' });
    expect(await rowOf('Goodbye')).toMatchObject({ value: 'new Goodbye', state: 'machine' });

    const keysIn = async (state: string) =>
      ((await h.client.get(`/api/translations/all?lang=fr&state=${state}`)).body.rows as Row[]).map(
        (row) => row.key,
      );
    expect(await keysIn('reviewed')).toEqual(['Hello']);
    expect(await keysIn('machine')).toEqual(['Goodbye']);
    expect(await keysIn('human')).toEqual([]);
  });

  it('refuses a state a person cannot set, or an unknown state filter (400)', async () => {
    const machine = await h.client.patch('/api/translations/state', { ids: [1], state: 'machine' });
    expect(machine.status).toBe(400);
    expect((await h.client.get('/api/translations/all?state=final')).status).toBe(400);
  });
});

describe('delivering reviewed translations only', () => {
  it('follows the setting at once, with a new ETag each time it changes', async () => {
    await save('Hello', 'Salut');
    await save('Goodbye', 'Au revoir');
    expect((await h.client.get('/api/project')).body.settings.deliverReviewedOnly).toBe(false);
    const first = await h.client.get('/api/translations?lang=fr');
    expect(first.body).toHaveLength(2);

    await h.client.patch('/api/project/settings', { settings: { deliverReviewedOnly: true } });
    const none = await h.client.get('/api/translations?lang=fr', {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);

    await h.client.patch('/api/translations/state', {
      ids: [(await rowOf('Hello')).translationId],
      state: 'reviewed',
    });
    expect(await delivered()).toEqual(['Hello=Salut']);
    // A person's edit of a reviewed translation needs a review again.
    await save('Hello', 'Bonjour');
    expect(await delivered()).toEqual([]);

    await h.client.patch('/api/project/settings', { settings: { deliverReviewedOnly: false } });
    expect(await delivered()).toEqual(['Hello=Bonjour', 'Goodbye=Au revoir']);
  });
});

describe('history', () => {
  it('lists every change of a translation, newest first, with who, when, old → new and the source', async () => {
    await save('Hello', 'Salut');
    await save('Hello', 'Salut'); // no change, no entry
    await save('Hello', 'Bonjour', 'import');
    const entries = await historyOf('Hello');
    expect(entries).toEqual([
      {
        id: expect.any(Number),
        phraseId: ids.Hello,
        lang: 'fr',
        oldValue: 'Salut',
        newValue: 'Bonjour',
        oldState: 'human',
        newState: 'human',
        source: 'import',
        actor: expect.stringMatching(/^key:[0-9a-f]{12}$/),
        revertedId: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      expect.objectContaining({ oldValue: null, newValue: 'Salut', source: 'human' }),
    ]);
    expect(JSON.stringify(entries)).not.toContain(h.key);
  });

  it('reverts a change with a new entry, and reverting a creation deletes the translation', async () => {
    await runAiJob(['Hello']);
    await save('Hello', 'Salut');
    const [edit, creation] = await historyOf('Hello');
    const reverted = await h.client.post(`/api/translations/history/${edit!.id}/revert`);
    expect(reverted.body).toEqual({ ok: true, changed: true });
    expect(await rowOf('Hello')).toMatchObject({ value: '[fr] Hello', state: 'machine' });
    const [undo] = await historyOf('Hello');
    expect(undo).toMatchObject({
      source: 'revert',
      revertedId: edit!.id,
      oldValue: 'Salut',
      newValue: '[fr] Hello',
    });

    await h.client.post(`/api/translations/history/${creation!.id}/revert`);
    expect(await rowOf('Hello')).toMatchObject({ value: null, translationId: null });
    expect((await historyOf('Hello'))[0]).toMatchObject({ source: 'revert', newValue: null });
    expect(await delivered()).toEqual([]);
  });

  it('records a deletion, which a revert undoes', async () => {
    await save('Thanks', 'Merci');
    const { translationId } = await rowOf('Thanks');
    await h.client.delete(`/api/translations/${translationId}`);
    const [deletion] = await historyOf('Thanks');
    expect(deletion).toMatchObject({ oldValue: 'Merci', newValue: null, source: 'human' });
    await h.client.post(`/api/translations/history/${deletion!.id}/revert`);
    expect(await rowOf('Thanks')).toMatchObject({ value: 'Merci', state: 'human' });
  });

  it('answers 404 for an unknown entry or another project’s, and 400 for a bad query', async () => {
    await save('Hello', 'Salut');
    const [entry] = await historyOf('Hello');
    const other = await h.newProject();
    expect((await other.client.post(`/api/translations/history/${entry!.id}/revert`)).status).toBe(404);
    expect((await other.client.get(`/api/translations/history?phrase_id=${ids.Hello}&lang=fr`)).body).toEqual(
      { entries: [] },
    );
    const missing = await h.client.post('/api/translations/history/2000000000/revert');
    expect(missing.status).toBe(404);
    expect((await h.client.get(`/api/translations/history?phrase_id=${ids.Hello}`)).status).toBe(400);
  });

  it('refuses to revert to a value whose slots no longer fit the edited key (422 slot_mismatch)', async () => {
    await h.client.post('/api/textnodes', { keys: [{ key: 'You have 3 items' }], url: 'https://shop.test/' });
    const id = (await h.client.get('/api/translations/all?search=items')).body.rows[0].id as number;
    await h.client.post('/api/translations', {
      lang: 'fr',
      translations: [{ id, value: 'Vous avez {{number:0}} articles' }],
    });
    await h.client.patch(`/api/phrases/${id}`, { key: 'You have items', varSlots: [] });
    await h.client.post('/api/translations', { lang: 'fr', translations: [{ id, value: 'Des articles' }] });
    const entries = (await h.client.get(`/api/translations/history?phrase_id=${id}&lang=fr`)).body.entries;
    const res = await h.client.post(`/api/translations/history/${entries[0].id}/revert`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('slot_mismatch');
  });
});
