import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { dashboardMetrics, undeclaredMetrics } from '@app/server-kit/testing';
import { startHarness, type Harness } from './helpers.ts';

const METRICS_TOKEN = 'scraper-token-0123456789';

describe('translator observability', () => {
  let h: Harness;
  let fake: FakeOpenAI;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-test' });
    h = await startHarness({ metricsToken: METRICS_TOKEN, ai: { baseUrl: fake.baseUrl } });
    await h.client.patch('/api/project/settings', {
      settings: { languages: ['fr'], translationProviderApiKey: 'sk-test' },
    });
  });
  afterAll(async () => {
    await h?.stop();
    await fake?.close();
  });

  it('answers liveness and readiness without a key, with nothing but a status', async () => {
    const live = await h.anonymous.get('/api/livez');
    expect([live.status, live.body]).toEqual([200, { status: 'ok' }]);
    const ready = await h.anonymous.get('/api/readyz');
    expect([ready.status, ready.body]).toEqual([200, { status: 'ready' }]);
  });

  it('keeps a safe incoming X-Request-Id and replaces any other', async () => {
    const kept = await h.anonymous.get('/api/livez', { headers: { 'x-request-id': 'edge-7f3a' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-7f3a');
    const replaced = await h.anonymous.get('/api/livez', { headers: { 'x-request-id': '<script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows metrics to the scraper token only, not to a project key', async () => {
    expect((await h.anonymous.get('/api/metrics')).status).toBe(401);
    expect((await h.client.get('/api/metrics')).status).toBe(401);
    const wrong = { authorization: 'Bearer wrong-token-0123456789' };
    expect((await h.anonymous.get('/api/metrics', { headers: wrong })).status).toBe(401);
    const scraped = await h.anonymous.get('/api/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('counts requests by route pattern, delivery cache hits and the cost of AI jobs', async () => {
    await h.client.post('/api/textnodes', { keys: [{ key: 'Add to basket' }, { key: 'Checkout' }] });
    const rows = (await h.client.get('/api/translations/all?limit=10')).body.rows as { id: number }[];
    await h.client.patch('/api/textnodes/status', { ids: rows.map((row) => row.id), status: 'approved' });
    await h.client.get('/api/translations?lang=fr');
    await h.client.get('/api/translations?lang=fr');
    const created = await h.client.post('/api/ai-jobs', { key_ids: rows.map((row) => row.id), lang: 'fr' });
    const jobId = created.body.jobId as string;
    for (let i = 0; i < 200; i++) {
      const state = (await h.client.get(`/api/ai-jobs/${jobId}`)).body.status;
      if (state !== 'pending' && state !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    const text = (
      await h.anonymous.get('/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text;
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/ai-jobs\/:jobId",status="200"\} [1-9]/,
    );
    expect(text).not.toContain(jobId);
    expect(text).toMatch(/cache_requests_total\{cache="delivery",result="hit"\} [1-9]/);
    expect(text).toMatch(/translator_ai_job_duration_seconds_count\{status="completed"\} 1$/m);
    expect(text).toMatch(/translator_ai_calls_total\{outcome="ok"\} [1-9]/);
    expect(text).toMatch(/translator_ai_tokens_total\{kind="prompt"\} [1-9]/);
    expect(text).toMatch(/translator_ai_phrases_total\{result="translated"\} 2$/m);
    expect(text).toMatch(/^# TYPE translator_ai_jobs gauge$/m);
  });

  it('exports every translator metric the sample Grafana dashboard queries', async () => {
    const names = dashboardMetrics().filter((name) => name.startsWith('translator_'));
    expect(names.length).toBeGreaterThan(3);
    const text = (
      await h.anonymous.get('/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text;
    expect(undeclaredMetrics([...names, 'http_request_duration_seconds_bucket'], text)).toEqual([]);
  });
});
