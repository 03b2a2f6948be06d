import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultBehaviour, startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { readSse } from '@app/server-kit/testing';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
let fake: FakeOpenAI;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-test' });
  h = await startHarness({ ai: { baseUrl: fake.baseUrl, batchSize: 10, parallelCalls: 2, backoffMs: 5 } });
  await h.client.patch('/api/project/settings', {
    settings: { languages: ['fr', 'de'], translationProviderApiKey: 'sk-test' },
  });
});
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});
beforeEach(() => {
  fake.set({ ...defaultBehaviour(), apiKey: 'sk-test' });
  fake.requests.length = 0;
});

/** Registers and approves `count` fresh phrases (each containing a tag unique to this call); returns their ids. */
async function phrases(
  count: number,
  make = (i: number, tag: string) => `Item ${tag} ${letters(i)} costs 5 euros`,
) {
  seq += 1;
  const tag = `zq${letters(seq)}`;
  const keys = Array.from({ length: count }, (_, i) => ({ key: make(i, tag) }));
  await h.client.post('/api/textnodes', { keys, url: 'https://shop.test/' });
  const rows = (await h.client.get(`/api/translations/all?search=${tag}&limit=500`)).body.rows as {
    id: number;
  }[];
  const found = rows.map((row) => row.id).sort((a, b) => a - b);
  expect(found).toHaveLength(count);
  await h.client.patch('/api/textnodes/status', { ids: found, status: 'approved' });
  return found;
}
const letters = (n: number) =>
  String.fromCharCode(97 + (n % 26)) + String.fromCharCode(97 + (Math.floor(n / 26) % 26));

interface JobView {
  status: string;
  completed: number;
  [field: string]: unknown;
}

async function waitForJob(
  jobId: string,
  done: (job: JobView) => boolean = (job) => !['pending', 'running'].includes(job.status),
  timeoutMs = 15_000,
) {
  const start = Date.now();
  for (;;) {
    const res = await h.client.get(`/api/ai-jobs/${jobId}`);
    if (res.status === 200 && done(res.body)) return res.body;
    if (Date.now() - start > timeoutMs) throw new Error(`job ${jobId} stuck: ${JSON.stringify(res.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const itemsSent = () =>
  fake.requests
    .filter((r) => r.status === 200)
    .flatMap((r) => JSON.parse(r.messages.at(-1)!.content).items as { id: string }[]);

describe('prompts', () => {
  it('has a default prompt and supports create, update, default switch and delete', async () => {
    const list = await h.client.get('/api/prompts');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ name: 'Default', isDefault: true })]);
    const defaultId = list.body[0].id;
    expect(defaultId).toMatch(/^[0-9a-f-]{36}$/);
    const created = await h.client.post('/api/prompts', { name: 'Formal', text: 'Use the formal register.' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Formal',
      isDefault: false,
    });
    const updated = await h.client.put(`/api/prompts/${created.body.id}`, {
      text: 'Use vous.',
      isDefault: true,
    });
    expect(updated.body).toMatchObject({ text: 'Use vous.', isDefault: true });
    expect(
      (await h.client.get('/api/prompts')).body.filter((p: { isDefault: boolean }) => p.isDefault),
    ).toHaveLength(1);
    const refused = await h.client.delete(`/api/prompts/${created.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('default_prompt');
    await h.client.put(`/api/prompts/${defaultId}`, { isDefault: true });
    expect((await h.client.delete(`/api/prompts/${created.body.id}`)).body).toEqual({ ok: true });
    expect((await h.client.delete(`/api/prompts/${created.body.id}`)).status).toBe(404);
    expect((await h.client.put('/api/prompts/not-a-uuid', { name: 'x' })).status).toBe(400);
    expect((await h.client.post('/api/prompts', { name: 'No text' })).status).toBe(400);
    const other = await h.newProject('Prompt neighbour');
    expect((await other.client.put(`/api/prompts/${defaultId}`, { name: 'mine' })).status).toBe(404);
  });
});

describe('AI jobs', () => {
  it('translates approved phrases in batches, keeps slots, and reports progress and history', async () => {
    const ids = await phrases(25);
    const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'fr', include_screenshots: false });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ jobId: expect.any(String), total: 25 });
    const job = await waitForJob(res.body.jobId);
    expect(job).toMatchObject({
      id: res.body.jobId,
      status: 'completed',
      total: 25,
      completed: 25,
      failed: 0,
      estimatedTimeRemaining: 0,
      lang: 'fr',
    });
    expect(job.finishedAt).toEqual(expect.any(String));
    const delivered = (await h.client.get('/api/translations?lang=fr')).body as {
      key: string;
      value: string;
    }[];
    const first = delivered.find((t) => t.key.endsWith('costs {{number:0}} euros'))!;
    expect(first.value).toBe(`[fr] ${first.key}`);
    expect(fake.requests.every((r) => r.authorization === 'Bearer sk-test' && r.model === 'test-model')).toBe(
      true,
    );
    const batches = fake.requests.map((r) => JSON.parse(r.messages.at(-1)!.content).items.length);
    expect(batches.every((n) => n <= 10)).toBe(true);
    expect(fake.requests[0]!.messages[0]!.content).toContain('French (fr)');
    const log = await h.client.get('/api/ai-jobs/log');
    expect(log.status).toBe(200);
    expect(log.body[0]).toMatchObject({ id: res.body.jobId, status: 'completed' });
    expect((await h.client.get('/api/ai-jobs')).body).toEqual({
      jobs: [],
      stats: { running: 0, pending: 0, total: 0 },
    });
  });

  it('retries 429 (honouring Retry-After) and 5xx answers', async () => {
    const ids = await phrases(12);
    fake.set({ rateLimitNext: 3, retryAfterMs: 30, serverErrorNext: 2 });
    const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'de' });
    const job = await waitForJob(res.body.jobId);
    expect(job).toMatchObject({ status: 'completed', completed: 12, failed: 0 });
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(3);
    expect(fake.requests.filter((r) => r.status === 500)).toHaveLength(2);
  });

  it('counts an item the provider keeps dropping as failed, after one more try', async () => {
    const ids = await phrases(8, (i, tag) =>
      i === 3 ? `Drop me ${tag} please` : `Keep ${tag} item ${letters(i)} now`,
    );
    fake.set({ dropItem: (text) => text.startsWith('Drop me') });
    const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'fr' });
    const job = await waitForJob(res.body.jobId);
    expect(job).toMatchObject({ status: 'completed', completed: 7, failed: 1 });
    const dropped = itemsSent().filter((item) => item.id === String(ids[3]));
    expect(dropped).toHaveLength(2);
  });

  it('refuses a translation whose slot tokens were mangled', async () => {
    const ids = await phrases(5, (i, tag) => `Mangle ${tag} test ${letters(i)} with 7 slots`);
    const victim = ids[0]!;
    fake.set({ mangleSlot: (text) => text.startsWith('Mangle') });
    const res = await h.client.post('/api/ai-jobs', { key_ids: [victim], lang: 'fr' });
    const job = await waitForJob(res.body.jobId);
    expect(job).toMatchObject({ status: 'failed', completed: 0, failed: 1, error: 'Every item failed.' });
    const row = (await h.client.get(`/api/translations/all?lang=fr&search=Mangle&limit=500`)).body.rows.find(
      (r: { id: number }) => r.id === victim,
    );
    expect(row.translated).toBe(false);
  });

  it('cancels a slow running job; cancelling again is 409', async () => {
    const ids = await phrases(60);
    fake.set({ latencyMs: 150 });
    const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'de' });
    const running = await waitForJob(res.body.jobId, (job) => job.status === 'running' && job.completed > 0);
    expect(running.estimatedTimeRemaining).toBeGreaterThan(0);
    const listed = await h.client.get('/api/ai-jobs');
    expect(listed.body.stats).toEqual({ running: 1, pending: 0, total: 1 });
    const cancelled = await h.client.delete(`/api/ai-jobs/${res.body.jobId}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const after = fake.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fake.requests.length).toBe(after);
    const final = (await h.client.get(`/api/ai-jobs/${res.body.jobId}`)).body;
    expect(final.status).toBe('cancelled');
    expect(final.completed).toBeLessThan(60);
    // The batch in flight at the cancel writes nothing afterwards.
    expect(final.completed).toBe(cancelled.body.completed);
    const again = await h.client.delete(`/api/ai-jobs/${res.body.jobId}`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('job_finished');
  });

  it('runs one job per project at a time; the next waits as pending', async () => {
    const a = await phrases(20);
    const b = await phrases(5);
    let release = () => {};
    fake.set({ gate: new Promise<void>((resolve) => (release = resolve)) });
    const first = await h.client.post('/api/ai-jobs', { key_ids: a, lang: 'fr' });
    const second = await h.client.post('/api/ai-jobs', { key_ids: b, lang: 'fr' });
    await waitForJob(first.body.jobId, (job) => job.status === 'running');
    const listed = await h.client.get('/api/ai-jobs');
    fake.set({ gate: undefined });
    release();
    expect(listed.body.stats).toEqual({ running: 1, pending: 1, total: 2 });
    expect(listed.body.jobs.map((j: { id: string }) => j.id)).toEqual([first.body.jobId, second.body.jobId]);
    await waitForJob(second.body.jobId);
    expect((await h.client.get(`/api/ai-jobs/${first.body.jobId}`)).body.status).toBe('completed');
  });

  it('fails a job the provider refuses (wrong key) with the provider’s message', async () => {
    const ids = await phrases(3);
    fake.set({ apiKey: 'sk-other' });
    const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'fr' });
    const job = await waitForJob(res.body.jobId);
    expect(job.status).toBe('failed');
    expect(job.error).toContain('Incorrect API key');
  });

  it('validates new jobs', async () => {
    const ids = await phrases(2);
    const cases: [unknown, number, string][] = [
      [{ key_ids: [], lang: 'fr' }, 400, 'invalid_request'],
      [{ key_ids: ids }, 400, 'invalid_request'],
      [{ key_ids: ids, lang: 'it' }, 422, 'unknown_language'],
      [{ key_ids: [...ids, 987_654], lang: 'fr' }, 422, 'unknown_phrase'],
      [
        { key_ids: ids, lang: 'fr', prompt_id: '00000000-0000-4000-8000-000000000000' },
        422,
        'unknown_prompt',
      ],
      [{ key_ids: ids, lang: 'fr', prompt_id: 'nope' }, 400, 'invalid_request'],
    ];
    for (const [body, status, code] of cases) {
      const res = await h.client.post('/api/ai-jobs', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.code).toBe(code);
    }
    const other = await h.newProject('No provider');
    await other.client.patch('/api/project/settings', { settings: { languages: ['fr'] } });
    const noKey = await other.client.post('/api/ai-jobs', { key_ids: [1], lang: 'fr' });
    expect(noKey.status).toBe(422);
    expect(noKey.body.error.code).toBe('provider_not_configured');
    expect((await h.client.get('/api/ai-jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await h.client.get('/api/ai-jobs/xyz')).status).toBe(400);
  });

  it('hides a job from another project', async () => {
    const ids = await phrases(2);
    const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'fr' });
    await waitForJob(res.body.jobId);
    const other = await h.newProject('Peeker');
    expect((await other.client.get(`/api/ai-jobs/${res.body.jobId}`)).status).toBe(404);
    expect((await other.client.delete(`/api/ai-jobs/${res.body.jobId}`)).status).toBe(404);
    expect((await other.client.get(`/api/ai-jobs/${res.body.jobId}/events`)).status).toBe(404);
    expect((await other.client.get('/api/ai-jobs/log')).body).toEqual([]);
  });

  it('streams a running job’s progress batch by batch, then its status (events)', async () => {
    const ids = await phrases(60);
    fake.set({ latencyMs: 150 });
    const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'de' });
    const url = `${h.url}/api/ai-jobs/${res.body.jobId}/events`;
    const { status, events, contentType } = await readSse(url, { 'x-api-key': h.key });
    expect(status).toBe(200);
    expect(contentType).toContain('text/event-stream');
    const progress = events
      .filter((event) => event.event === 'progress')
      .map((event) => JSON.parse(event.data) as { total: number; completed: number; failed: number });
    const done = progress.map((step) => step.completed + step.failed);
    // Six batches of 10, two calls at a time, 150 ms each: the stream hears (nearly) every batch as it is
    // written, never a step backwards.
    expect(done.length).toBeGreaterThanOrEqual(5);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(progress.at(-1)).toEqual({ total: 60, completed: 60, failed: 0 });
    expect(events.at(-1)).toEqual({ event: 'status', data: JSON.stringify({ status: 'completed' }) });
    expect((await h.anonymous.get(`/api/ai-jobs/${res.body.jobId}/events`)).status).toBe(401);
  });

  it('resumes a job after a restart without repeating finished items', async () => {
    const ids = await phrases(60);
    fake.set({ latencyMs: 120 });
    const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'fr' });
    await waitForJob(res.body.jobId, (job) => job.completed >= 10);
    await h.restart({ ai: { baseUrl: fake.baseUrl, batchSize: 10, parallelCalls: 2, backoffMs: 5 } });
    const job = await waitForJob(res.body.jobId);
    expect(job).toMatchObject({ status: 'completed', completed: 60, failed: 0 });
    const sent = itemsSent().filter((item) => ids.includes(Number(item.id)));
    // Only calls cut short by the shutdown (at most one batch per parallel call) may be sent twice.
    expect(sent.length).toBeLessThanOrEqual(60 + 2 * 10);
    expect(
      (await h.client.get(`/api/textnodes/untranslated-ids?lang=fr`)).body.ids.filter((id: number) =>
        ids.includes(id),
      ),
    ).toEqual([]);
  });

  it('takes over a running job whose worker died (lease expired)', async () => {
    const ids = await phrases(4);
    const { db } = h.translator.ctx;
    const project = await h.client.get('/api/project');
    const id = '11111111-1111-4111-8111-111111111111';
    const now = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('ai_jobs')
        .values({
          id,
          project_id: project.body.id,
          lang: 'de',
          prompt_id: null,
          status: 'running',
          total: 4,
          completed: 0,
          failed: 0,
          include_screenshots: 0,
          error: null,
          lease_owner: 'a-worker-that-died',
          lease_until: Date.now() - 1000,
          run_ms: 0,
          created_at: now,
          started_at: now,
          finished_at: null,
          updated_at: now,
        })
        .execute();
      await trx
        .insertInto('ai_job_items')
        .values(ids.map((phraseId) => ({ job_id: id, phrase_id: phraseId, state: 'pending' as const })))
        .execute();
    });
    const job = await waitForJob(id);
    expect(job).toMatchObject({ status: 'completed', completed: 4, failed: 0 });
  });
});
