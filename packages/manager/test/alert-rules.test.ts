import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, freePort, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, siteInput, startFleetManager } from './fleet-helpers.ts';
import { insertContainer } from './container-helpers.ts';
import { startMailSink } from './mail-sink.ts';
import type { SubjectSample } from '../src/metrics/metrics-repository.ts';
import { AlertDelivery } from '../src/alerts/alert-delivery.ts';
import { AlertRulesRepository } from '../src/alerts/alert-rules-repository.ts';
import { Notices } from '../src/notifications/notices.ts';
import { NotificationsRepository } from '../src/notifications/notifications-repository.ts';
import { UsersRepository } from '../src/users/users-repository.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
const SECRET = 'a-webhook-secret-of-some-length';

interface Received {
  body: string;
  signature: string | undefined;
}
interface Notice {
  action: string;
  message: string;
  evidence: { ruleId: number; subjectId: number };
}

/** A webhook receiver on 127.0.0.1 that keeps what it gets in `received` and answers `status()`. */
async function startReceiver(received: Received[], status: () => number) {
  const port = await freePort();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ body, signature: request.headers['x-signature-256'] as string | undefined });
      const answer = status();
      response.writeHead(answer, answer === 429 ? { 'retry-after': '0' } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${port}/hook` };
}

/** Alert rules: admin CRUD, and a rule that fires and resolves exactly once, with a clock the test moves. */
describe('alert rules', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let olga: ManagerClient;
  let webhook: Server;
  let webhookUrl = '';
  const received: Received[] = [];
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  const ids = { site: 0, node: 0, container: 0 };

  beforeAll(async () => {
    ({ server: webhook, url: webhookUrl } = await startReceiver(received, () => 204));
    const port = new URL(webhookUrl).port;
    sink = await startMailSink();
    test = await startFleetManager({ METRICS_INTERVAL_S: '0', ALERT_WEBHOOK_ALLOWLIST: `127.0.0.1:${port}` });
    admin = await adminClient(test);
    olga = await userClient(test, admin, 'olga');
    await admin.put('/settings', { smtpUrl: sink.url, smtpNoreplyAddress: 'noreply@example.test' });
    ids.site = (await admin.post('/sites', siteInput())).body.data.id as number;
    ids.node = (await admin.post(`/sites/${ids.site}/nodes`, { name: 'sim1', nodeType: 'dummy' })).body.data
      .id as number;
    ids.container = await insertContainer(test, {
      hostname: 'busy-ct',
      nodeId: ids.node,
      containerId: '100',
      owner: 'olga',
    });
  });
  afterAll(async () => {
    await test?.close();
    await sink?.close();
    await new Promise((resolve) => webhook?.close(resolve));
  });

  /** One sampling round at `at`: the container's CPU at `cpu` percent, stored, then the rules checked. */
  const round = async (at: number, cpu: number | null, containerId = ids.container) => {
    const sample: SubjectSample = {
      subject_type: 'container',
      subject_id: containerId,
      cpu_cores: null,
      cpu_pct: cpu,
      mem_bytes: null,
      mem_pct: 10,
      disk_bytes: null,
      disk_pct: null,
      net_in_bps: null,
      net_out_bps: null,
    };
    await test.manager.services.metricsHistory.repo.record(at, [sample]);
    await test.manager.services.alertEvaluator.evaluate(at);
  };
  const alertNotices = async (client: ManagerClient, ruleId: number) =>
    ((await client.get('/notifications?limit=100')).body.data as Notice[]).filter(
      (n) => n.action.startsWith('alert.') && n.evidence.ruleId === ruleId,
    );
  const rule = (overrides: Record<string, unknown> = {}) => ({
    name: 'CPU hot',
    metric: 'cpuPercent',
    comparison: 'above',
    threshold: 90,
    durationSeconds: 180,
    scope: 'container',
    scopeId: ids.container,
    email: true,
    webhookUrl,
    webhookSecret: SECRET,
    ...overrides,
  });

  it('creates, lists, updates and deletes rules; the webhook secret is write-only; every change is audited', async () => {
    const created = await admin.post('/alert-rules', rule({ name: 'Disk full', metric: 'diskPercent' }));
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({
      name: 'Disk full',
      metric: 'diskPercent',
      scope: 'container',
      scopeId: ids.container,
      email: true,
      webhookUrl,
      hasWebhookSecret: true,
    });
    expect(created.text).not.toContain(SECRET);
    const row = await test.manager.database.db
      .selectFrom('alert_rules')
      .select('webhook_secret_sealed')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.webhook_secret_sealed).not.toContain(SECRET);

    const updated = await admin.put(
      `/alert-rules/${id}`,
      rule({ name: 'Disk nearly full', webhookSecret: '' }),
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Disk nearly full', hasWebhookSecret: true });
    const withoutHook = await admin.put(
      `/alert-rules/${id}`,
      rule({ webhookUrl: null, webhookSecret: null }),
    );
    expect(withoutHook.body.data).toMatchObject({ webhookUrl: null, hasWebhookSecret: false });
    expect((await admin.get('/alert-rules')).body.data.map((r: { id: number }) => r.id)).toContain(id);
    expect((await admin.delete(`/alert-rules/${id}`)).status).toBe(204);
    expect((await admin.get(`/alert-rules/${id}`)).status).toBe(404);
    expect((await admin.delete(`/alert-rules/${id}`)).status).toBe(404);

    const audit = (await admin.get('/audit-events?limit=500')).body.data.events as Array<{
      action: string;
      outcome: string;
      target: { type: string | null; id: string | null };
    }>;
    const mine = audit.filter((e) => e.action.startsWith('alert_rule.') && e.outcome === 'success');
    expect(mine.map((e) => e.action).sort()).toEqual([
      'alert_rule.create',
      'alert_rule.delete',
      'alert_rule.update',
      'alert_rule.update',
    ]);
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });

  it('answers 400 for malformed rules and 422 for rules that break a model rule, with a message per field', async () => {
    const bad = await admin.post(
      '/alert-rules',
      rule({ name: ' ', threshold: 150, scopeId: 999_999, webhookUrl: 'ftp://x', webhookSecret: 'short' }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toEqual({
      name: 'must not be blank',
      threshold: 'must be a percentage between 0 and 100',
      scopeId: 'names a container that does not exist',
      webhookUrl: 'must be an http(s) URL',
      webhookSecret: 'must be at least 16 characters',
    });
    const unscoped = await admin.post(
      '/alert-rules',
      rule({ scope: 'site', scopeId: null, webhookSecret: null }),
    );
    expect(unscoped.status).toBe(422);
    expect(unscoped.body.error.fields).toEqual({
      scopeId: 'must name the site',
      webhookSecret: 'is required with a webhook URL',
    });
    const extra = await admin.post('/alert-rules', rule({ scope: 'nodes', scopeId: ids.node }));
    expect(extra.body.error.fields).toEqual({ scopeId: 'must be empty for the scope nodes' });
    const schema = await admin.post('/alert-rules', rule({ metric: 'load', durationSeconds: -1 }));
    expect(schema.status).toBe(400);
    expect(schema.body.error.code).toBe('invalid_request');
    expect(Object.keys(schema.body.error.fields as object)).toEqual(
      expect.arrayContaining(['metric', 'durationSeconds']),
    );
  });

  it('refuses, when a rule is saved, a webhook that delivery could never reach (422 naming the field)', async () => {
    const otherPort = await freePort();
    const refused: Array<[string, RegExp]> = [
      [`http://127.0.0.1:${otherPort}/hook`, /127\.0\.0\.1 is loopback/],
      [`http://localhost:${new URL(webhookUrl).port}/hook`, /localhost resolves to .* \(loopback\)/],
      ['https://10.1.2.3/hook', /10\.1\.2\.3 is private/],
      ['https://169.254.169.254/latest/meta-data', /link-local/],
      ['https://[::1]/hook', /loopback/],
      ['http://example.test/hook', /https only/],
    ];
    for (const [url, reason] of refused) {
      const response = await admin.post('/alert-rules', rule({ webhookUrl: url }));
      expect(response.status, url).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(Object.keys(response.body.error.fields)).toEqual(['webhookUrl']);
      expect(response.body.error.fields.webhookUrl, url).toMatch(reason);
    }
    const id = (await admin.post('/alert-rules', rule())).body.data.id as number;
    const moved = await admin.put(`/alert-rules/${id}`, rule({ webhookUrl: 'https://192.168.1.1/hook' }));
    expect(moved.status).toBe(422);
    expect(moved.body.error.fields.webhookUrl).toMatch(/private/);
    expect((await admin.get(`/alert-rules/${id}`)).body.data.webhookUrl).toBe(webhookUrl);
    expect((await admin.delete(`/alert-rules/${id}`)).status).toBe(204);
  });

  it('refuses non-administrators', async () => {
    expect((await olga.get('/alert-rules')).status).toBe(403);
    expect((await olga.post('/alert-rules', rule())).status).toBe(403);
  });

  it('fires once after the duration and resolves once: a notification, an e-mail and a signed webhook each', async () => {
    const id = (await admin.post('/alert-rules', rule())).body.data.id as number;
    await round(T0, 95);
    await round(T0 + MINUTE, 96);
    await round(T0 + 2 * MINUTE, 97);
    expect(await alertNotices(admin, id)).toEqual([]);
    await round(T0 + 3 * MINUTE, 98);
    await round(T0 + 4 * MINUTE, 99);
    const fired = await alertNotices(admin, id);
    expect(fired.map((n) => n.action)).toEqual(['alert.firing']);
    expect(fired[0]!.message).toContain('busy-ct');
    // The owner of the container the rule watches hears of it too.
    expect((await alertNotices(olga, id)).map((n) => n.action)).toEqual(['alert.firing']);
    expect((await sink.next('admin@example.test')).text).toContain('busy-ct is 98');

    await round(T0 + 5 * MINUTE, 20);
    await round(T0 + 6 * MINUTE, 10);
    expect((await alertNotices(admin, id)).map((n) => n.action).sort()).toEqual([
      'alert.firing',
      'alert.resolved',
    ]);
    expect((await alertNotices(olga, id)).length).toBe(2);
    expect((await sink.next('admin@example.test')).text).toContain('resolved');

    const hooks = await eventually(async () => received.length >= 2 && received);
    expect(hooks.length).toBe(2);
    for (const hook of hooks) {
      const expected = `sha256=${createHmac('sha256', SECRET).update(hook.body).digest('hex')}`;
      expect(hook.signature).toBe(expected);
    }
    const events = hooks.map((hook) => JSON.parse(hook.body) as Record<string, unknown>);
    expect(events[0]).toMatchObject({
      event: 'alert.firing',
      rule: { id, metric: 'cpuPercent', comparison: 'above', threshold: 90, durationSeconds: 180 },
      subject: { type: 'container', id: ids.container, name: 'busy-ct' },
      value: 98,
      since: new Date(T0).toISOString(),
      at: new Date(T0 + 3 * MINUTE).toISOString(),
    });
    expect(events[1]).toMatchObject({ event: 'alert.resolved', value: 20 });
    expect(sink.messages).toEqual([]);
  });

  it('does not fire when the condition stops holding before the duration', async () => {
    const id = (await admin.post('/alert-rules', rule({ email: false, webhookUrl: null }))).body.data
      .id as number;
    await round(T0 + 10 * MINUTE, 95);
    await round(T0 + 11 * MINUTE, 95);
    await round(T0 + 12 * MINUTE, 50);
    await round(T0 + 13 * MINUTE, 95);
    await round(T0 + 14 * MINUTE, 95);
    expect(await alertNotices(admin, id)).toEqual([]);
    await round(T0 + 16 * MINUTE, 95);
    expect((await alertNotices(admin, id)).map((n) => n.action)).toEqual(['alert.firing']);
    await admin.delete(`/alert-rules/${id}`);
  });

  it("is checked after each of the sampler's rounds: the simulated node's memory use fires a rule at once", async () => {
    const id = (
      await admin.post(
        '/alert-rules',
        rule({
          metric: 'memoryPercent',
          threshold: 1,
          durationSeconds: 0,
          scope: 'node',
          scopeId: ids.node,
          email: false,
          webhookUrl: null,
        }),
      )
    ).body.data.id as number;
    expect(await test.manager.services.metricsSampler.sampleOnce()).toBe(1);
    const fired = await alertNotices(admin, id);
    expect(fired.map((n) => [n.action, n.evidence.subjectId])).toEqual([['alert.firing', ids.node]]);
    expect(fired[0]!.message).toContain('node sim1');
    // Only the administrators: a node has no owner.
    expect(await alertNotices(olga, id)).toEqual([]);
  });

  it('a deleted container ends its alerts: a firing one resolves once, with its webhook; nothing is left behind', async () => {
    const doomed = await insertContainer(test, {
      hostname: 'doomed-ct',
      nodeId: ids.node,
      containerId: '101',
      owner: 'olga',
    });
    const id = (await admin.post('/alert-rules', rule({ scopeId: doomed, durationSeconds: 0, email: false })))
      .body.data.id as number;
    received.length = 0;
    await round(T0 + 20 * MINUTE, 99, doomed);
    expect((await alertNotices(admin, id)).map((n) => n.action)).toEqual(['alert.firing']);

    await test.manager.services.ctx.db.deleteFrom('containers').where('id', '=', doomed).execute();
    await round(T0 + 21 * MINUTE, 10);
    await round(T0 + 22 * MINUTE, 10);
    const notices = await alertNotices(admin, id);
    expect(notices.map((n) => n.action).sort()).toEqual(['alert.firing', 'alert.resolved']);
    expect(notices.find((n) => n.action === 'alert.resolved')!.message).toBe(
      `CPU hot resolved: container #${doomed} was deleted.`,
    );
    const hooks = await eventually(async () => received.length >= 2 && received);
    expect(JSON.parse(hooks[1]!.body)).toMatchObject({ event: 'alert.resolved', value: null });
    const states = await test.manager.services.ctx.db
      .selectFrom('alert_states')
      .selectAll()
      .where('rule_id', '=', id)
      .execute();
    expect(states).toEqual([]);
  });

  describe('webhook delivery', () => {
    let flaky: Server;
    let flakyUrl = '';
    /** The statuses the receiver answers with, one per request; then 204. */
    const script: number[] = [];
    const attempts: Received[] = [];

    beforeAll(async () => {
      ({ server: flaky, url: flakyUrl } = await startReceiver(attempts, () => script.shift() ?? 204));
    });
    afterAll(async () => {
      await new Promise((resolve) => flaky?.close(resolve));
    });

    /** A delivery as the manager wires it, retrying after 20 ms instead of seconds; sends one firing event. */
    const deliver = async (statuses: number[]) => {
      const { ctx, background } = test.manager.services;
      const users = new UsersRepository(ctx.db);
      const delivery = new AlertDelivery(
        test.manager.services.mailer,
        users,
        ctx.secrets,
        background,
        ctx.log,
        new Notices(new NotificationsRepository(ctx.db), users),
        [new URL(flakyUrl).host],
        [20, 20],
      );
      const created = await admin.post('/alert-rules', rule({ email: false }));
      // Saved with the manager's allowlisted receiver; this delivery (its own allowlist) posts to the flaky one.
      const saved = (await new AlertRulesRepository(ctx.db).byId(created.body.data.id as number))!;
      const row = { ...saved, webhook_url: flakyUrl };
      script.splice(0, script.length, ...statuses);
      attempts.length = 0;
      delivery.send(row, {
        event: 'alert.firing',
        rule: {
          id: row.id,
          name: row.name,
          metric: 'cpuPercent',
          comparison: 'above',
          threshold: 90,
          durationSeconds: 180,
        },
        subject: { type: 'container', id: ids.container, name: 'busy-ct' },
        value: 97,
        since: new Date(T0).toISOString(),
        at: new Date(T0).toISOString(),
        message: 'CPU hot',
      });
      await background.drain();
      await delivery.close();
      const failures = ((await admin.get('/notifications?limit=100')).body.data as Notice[]).filter(
        (n) => n.action === 'alert.webhook_failed' && n.evidence.ruleId === row.id,
      );
      return { attempts: [...attempts], failures };
    };

    it('retries a receiver that fails twice (503, then 429 with Retry-After): one event, signed alike each time', async () => {
      const { attempts: sent, failures } = await deliver([503, 429]);
      expect(sent).toHaveLength(3);
      expect(new Set(sent.map((a) => a.body)).size).toBe(1);
      for (const attempt of sent)
        expect(attempt.signature).toBe(
          `sha256=${createHmac('sha256', SECRET).update(attempt.body).digest('hex')}`,
        );
      expect(failures).toEqual([]);
    });

    it('tells the administrators when the receiver still fails after three attempts', async () => {
      const { attempts: sent, failures } = await deliver([500, 502, 503, 504]);
      expect(sent).toHaveLength(3);
      expect(failures).toHaveLength(1);
      expect(failures[0]!.message).toMatch(/failed after 3 attempts: answered 503/);
    });

    it('does not retry a refusal (400): one attempt, the administrators told at once', async () => {
      const { attempts: sent, failures } = await deliver([400]);
      expect(sent).toHaveLength(1);
      expect(failures[0]!.message).toMatch(/failed after 1 attempt: answered 400/);
    });
  });
});
