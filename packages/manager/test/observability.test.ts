import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardMetrics, undeclaredMetrics } from '@app/server-kit/testing';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { createAndWait } from './container-helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';

const METRICS_TOKEN = 'scraper-token-0123456789';

describe('manager observability', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let user: ManagerClient;

  beforeAll(async () => {
    test = await startFleetManager({ METRICS_TOKEN });
    admin = await adminClient(test);
    user = await userClient(test, admin, 'bob');
  });
  afterAll(() => test.close());

  it('answers liveness and readiness to anyone, with nothing but a status', async () => {
    const live = await test.client().get('/livez');
    expect([live.status, live.body]).toEqual([200, { status: 'ok' }]);
    const ready = await test.client().get('/readyz', { headers: { authorization: 'Bearer not-a-key' } });
    expect([ready.status, ready.body]).toEqual([200, { status: 'ready' }]);
  });

  it('keeps a safe incoming X-Request-Id and replaces any other', async () => {
    const kept = await test.client().get('/health', { headers: { 'x-request-id': 'trace-42.a_b:c' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.a_b:c');
    for (const unsafe of ['a b', 'x'.repeat(65), 'line\u00e9break', '']) {
      const replaced = await test.client().get('/health', { headers: { 'x-request-id': unsafe } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('shows metrics to administrators and the scraper token only', async () => {
    expect((await test.client().get('/metrics')).status).toBe(401);
    expect((await user.get('/metrics')).status).toBe(403);
    const wrong = await test
      .client()
      .get('/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } });
    expect(wrong.status).toBe(401);
    const scraped = await test
      .client()
      .get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await admin.get('/metrics')).status).toBe(200);
  });

  it('counts requests by route pattern, jobs, job streams, check-ins and caches', async () => {
    await admin.get('/jobs/987654');
    const key = (await admin.post('/apikeys', { description: 'metrics' })).body.data.key as string;
    const keyed = test.client();
    keyed.defaultHeaders.authorization = `Bearer ${key}`;
    await keyed.get('/session');
    await keyed.get('/session');
    const site = (await admin.post('/sites', siteInput())).body.data;
    await admin.post(`/sites/${site.id}/nodes`, { name: 'sim', nodeType: 'dummy' });
    await createAndWait(admin, site.id, { hostname: 'metrics-web', template: 'debian:12' });
    await test.client().post('/agents', { siteId: site.id, hostname: 'gw1' });

    const text = (await admin.get('/metrics')).text;
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/jobs\/:id",status="404"\} 1\b/,
    );
    expect(text).not.toContain('987654');
    expect(text).toMatch(/cache_requests_total\{cache="api_keys",result="hit"\} [1-9]/);
    expect(text).toMatch(
      /manager_job_duration_seconds_count\{command="container.create",outcome="success"\} [1-9]/,
    );
    expect(text).toMatch(
      new RegExp(
        `manager_agent_last_checkin_age_seconds\\{site_id="${site.id}",site="[^"]+",agent="gw1"\\} \\d`,
      ),
    );
    expect(text).toMatch(/^sse_connections 0$/m);
    expect(text).toMatch(/^# TYPE manager_jobs gauge$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('exports every metric the sample Grafana dashboard queries (but the translator’s own)', async () => {
    const names = dashboardMetrics();
    expect(names.length).toBeGreaterThan(10);
    const text = (await admin.get('/metrics')).text;
    expect(
      undeclaredMetrics(
        names.filter((name) => !name.startsWith('translator_')),
        text,
      ),
    ).toEqual([]);
  });
});
