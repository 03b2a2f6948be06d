import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { buildTranslator, type Translator } from '../src/app.ts';
import { startHarness, type Harness } from './helpers.ts';

// A provider call may take longer than a job's lease. The lease is renewed while the call is in flight,
// so neither this process nor another one takes the job over: every item is sent once and counted once.
const LEASE = { leaseMs: 400, batchSize: 2, parallelCalls: 1, backoffMs: 5 };
const SLOW_CALL_MS = 1500;

let fake: FakeOpenAI;
let h: Harness;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-test', latencyMs: SLOW_CALL_MS });
  h = await startHarness({ ai: { baseUrl: fake.baseUrl, ...LEASE } });
  await h.client.patch('/api/project/settings', {
    settings: { languages: ['fr'], translationProviderApiKey: 'sk-test' },
  });
});
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});

/** Registers and approves `count` fresh phrases; returns their ids. */
async function approvedPhrases(count: number): Promise<number[]> {
  seq += 1;
  const tag = `lease${String.fromCharCode(97 + seq)}`;
  const keys = Array.from({ length: count }, (_, i) => ({ key: `Slow ${tag} item ${'abcdefgh'[i]}` }));
  // A page of their own: on one page, each batch would look like the last one's texts changed.
  await h.client.post('/api/textnodes', { keys, url: `https://shop.test/${tag}` });
  const rows = (await h.client.get(`/api/translations/all?search=${tag}`)).body.rows as { id: number }[];
  const ids = rows.map((row) => row.id);
  await h.client.patch('/api/textnodes/status', { ids, status: 'approved' });
  return ids;
}

async function finished(jobId: string) {
  let job: { status: string } = { status: 'unknown' };
  await expect
    .poll(
      async () => {
        job = (await h.client.get(`/api/ai-jobs/${jobId}`)).body;
        return job.status;
      },
      { timeout: 30_000, interval: 100 },
    )
    .toMatch(/^(completed|failed|cancelled)$/);
  return job;
}

/** How often each of `ids` was sent to the provider in a call that got an answer. */
function timesSent(ids: number[]): number[] {
  const sent = fake.requests
    .filter((request) => request.status === 200)
    .flatMap((request) => JSON.parse(request.messages.at(-1)!.content).items as { id: string }[])
    .map((item) => Number(item.id));
  return ids.map((id) => sent.filter((sentId) => sentId === id).length);
}

describe('AI job leases', () => {
  it('a call longer than the lease: the job is not started again by its own process, and counts once', async () => {
    const ids = await approvedPhrases(4);
    const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'fr' });
    const job = await finished(res.body.jobId);
    expect(job).toMatchObject({ status: 'completed', total: 4, completed: 4, failed: 0 });
    expect(timesSent(ids)).toEqual([1, 1, 1, 1]);
  });

  it('two runners on one database: a slow call is never taken over, every item is sent once', async () => {
    const second: Translator = await buildTranslator(h.config);
    try {
      const ids = await approvedPhrases(6);
      const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'fr' });
      second.services.aiJobs.onChange(); // the other process hears of the job too
      const job = await finished(res.body.jobId);
      expect(job).toMatchObject({ status: 'completed', total: 6, completed: 6, failed: 0 });
      expect(timesSent(ids)).toEqual([1, 1, 1, 1, 1, 1]);
      const translated = (await h.client.get('/api/translations/all?lang=fr&translated=yes&limit=500')).body
        .rows as { id: number }[];
      expect(ids.every((id) => translated.some((row) => row.id === id))).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('a runner whose lease was taken stops its call and writes nothing more', async () => {
    const ids = await approvedPhrases(2);
    const res = await h.client.post('/api/ai-jobs', { key_ids: ids, lang: 'fr' });
    const jobId = res.body.jobId as string;
    const { db } = h.translator.ctx;
    await expect.poll(() => fake.inFlight(), { timeout: 10_000 }).toBe(1);
    // Another process took the job over (as it would after this one stalled past its lease).
    await db
      .updateTable('ai_jobs')
      .set({ lease_owner: 'another-process', lease_until: Date.now() + 600_000 })
      .where('id', '=', jobId)
      .execute();
    await expect.poll(() => fake.inFlight(), { timeout: 10_000 }).toBe(0);
    const row = await db.selectFrom('ai_jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'running', lease_owner: 'another-process', completed: 0, failed: 0 });
    const translated = (await h.client.get('/api/translations/all?lang=fr&translated=yes&limit=500')).body
      .rows as { id: number }[];
    expect(translated.filter((r) => ids.includes(r.id))).toEqual([]);
    await h.client.delete(`/api/ai-jobs/${jobId}`);
  });
});
