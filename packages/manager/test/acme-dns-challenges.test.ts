import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudflareFake } from '@app/fakes';
import { TestClient } from '@app/server-kit/testing';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { checkin, siteInput, startFleetManager } from './fleet-helpers.ts';
import { addDomain } from './container-helpers.ts';

const CF_TOKEN = 'cf-acme-token';
const DIGEST_1 = 'a'.repeat(43);
const DIGEST_2 = 'B-_9'.repeat(10) + 'xyz';

/**
 * The TXT records of a DNS-01 order, set by the manager at the domain's DNS provider for the site's
 * agent (which never holds the provider's key). The agent calls from another host through the
 * manager's proxy (TRUST_PROXY = 127.0.0.1) with its site's token.
 */
describe('ACME DNS-01 challenges through the manager', () => {
  let test: TestManager;
  let cloudflare: CloudflareFake;
  let admin: ManagerClient;
  let agent: TestClient;
  const ids = { site: 0, otherSite: 0 };

  const remote = (token?: string) => {
    const client = new TestClient(`${test.baseUrl}/api/v1`);
    client.defaultHeaders['x-forwarded-for'] = '203.0.113.5';
    if (token) client.defaultHeaders.authorization = `Bearer ${token}`;
    return client;
  };
  const txt = (zone: string) =>
    cloudflare
      .recordsOf(zone)
      .filter((record) => record.type === 'TXT')
      .map((record) => `${record.name} ${record.content}`)
      .sort();
  const publish = (values: string[], domain = 'apps.example.test', siteId = ids.site) =>
    agent.put('/agents/acme-challenges', { siteId, domain, values });

  beforeAll(async () => {
    cloudflare = await new CloudflareFake({
      tokens: [CF_TOKEN],
      zones: ['apps.example.test', 'nokey.example.test', 'beta.example.test'],
    }).start();
    test = await startFleetManager({ DNS_PROVIDER_API_URL: cloudflare.apiUrl, TRUST_PROXY: '127.0.0.1' });
    admin = await adminClient(test);
    ids.site = (await admin.post('/sites', siteInput())).body.data.id as number;
    ids.otherSite = (await admin.post('/sites', siteInput({ name: 'Beta' }))).body.data.id as number;
    const acme = { acmeEmail: 'ops@example.test', apiKey: CF_TOKEN };
    await addDomain(test, { name: 'apps.example.test', siteId: ids.site, ...acme });
    await addDomain(test, { name: 'nokey.example.test', siteId: ids.site, acmeEmail: 'ops@example.test' });
    await addDomain(test, { name: 'beta.example.test', siteId: ids.otherSite, ...acme });
    await addDomain(test, { name: 'gone.example.test', siteId: ids.site, ...acme });
    const token = (await admin.post(`/sites/${ids.site}/agent-tokens`, {})).body.data.token as string;
    agent = remote(token);
  });
  afterAll(async () => {
    await test?.close();
    await cloudflare?.stop();
  });

  it("tells the agent which of its site's domains it may order a wildcard for by DNS-01", async () => {
    const answer = await agent.post('/agents', checkin(ids.site));
    expect(answer.status, answer.text).toBe(200);
    const domains = answer.body.data.proxy.externalDomains as Array<{
      name: string;
      acmeDnsChallenge: boolean;
    }>;
    expect(Object.fromEntries(domains.map((d) => [d.name, d.acmeDnsChallenge]))).toEqual({
      'apps.example.test': true,
      'nokey.example.test': false,
      'gone.example.test': true,
    });
  });

  it('sets the TXT records to exactly the values given, and removes them with none', async () => {
    expect((await publish([DIGEST_1, DIGEST_2])).status).toBe(204);
    expect(txt('apps.example.test')).toEqual(
      [
        `_acme-challenge.apps.example.test ${DIGEST_1}`,
        `_acme-challenge.apps.example.test ${DIGEST_2}`,
      ].sort(),
    );
    // Again: nothing doubles.
    expect((await publish([DIGEST_2, DIGEST_1])).status).toBe(204);
    expect(txt('apps.example.test')).toHaveLength(2);
    expect((await publish([DIGEST_2])).status).toBe(204);
    expect(txt('apps.example.test')).toEqual([`_acme-challenge.apps.example.test ${DIGEST_2}`]);
    expect((await publish([])).status).toBe(204);
    expect(txt('apps.example.test')).toEqual([]);
  });

  it("refuses another site's domain (404) and another site's id with this token (403)", async () => {
    const foreign = await publish([DIGEST_1], 'beta.example.test');
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const otherSite = await publish([DIGEST_1], 'beta.example.test', ids.otherSite);
    expect(otherSite.status).toBe(403);
    expect(otherSite.body.error.code).toBe('forbidden');
    expect(txt('beta.example.test')).toEqual([]);
    expect(
      (await remote().put('/agents/acme-challenges', { siteId: ids.site, domain: 'x', values: [] })).status,
    ).toBe(401);
  });

  it('says what is missing: no DNS key (409), a value that is no digest (422), the provider failing (502)', async () => {
    const noKey = await publish([DIGEST_1], 'nokey.example.test');
    expect(noKey.status).toBe(409);
    expect(noKey.body.error.code).toBe('dns_challenge_unavailable');
    expect(txt('nokey.example.test')).toEqual([]);

    const bad = await publish(['not a digest"; rm -rf /']);
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(Object.keys(bad.body.error.fields as object)).toEqual([expect.stringMatching(/^values/)]);

    // The provider has no zone of that name.
    const failing = await publish([DIGEST_1], 'gone.example.test');
    expect(failing.status).toBe(502);
    expect(failing.body.error.code).toBe('dns_provider_error');
    expect(failing.body.error.message).toContain('_acme-challenge.gone.example.test');
    expect(failing.text).not.toContain(CF_TOKEN);
  });
});
