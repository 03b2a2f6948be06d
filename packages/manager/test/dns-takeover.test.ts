import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudflareFake } from '@app/fakes';
import { adminClient, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { addDomain, jobEnds } from './container-helpers.ts';

const CF_TOKEN = 'cf-takeover-token';
const SITE_IP = '198.51.100.7';

/**
 * A user publishing an HTTP service picks a name under an external domain; the manager adds the A
 * record. That must not let anyone take over a name the domain already uses (its website, its mail)
 * or the names mail, certificates and name service depend on.
 */
describe('HTTP service names cannot take over DNS names', () => {
  let test: TestManager;
  let cloudflare: CloudflareFake;
  let admin: ManagerClient;
  let alice: ManagerClient;
  let siteId: number;
  let foreign: number;
  let own: number;

  /** A record the domain's owner made at the provider, outside the manager. */
  async function existingRecord(zone: string, name: string, type: string, content: string) {
    const zoneId = [...cloudflare.zones.values()].find((entry) => entry.name === zone)!.id;
    const response = await fetch(`${cloudflare.apiUrl}/zones/${zoneId}/dns_records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CF_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type, name, content, ttl: 1 }),
    });
    expect(response.status).toBe(200);
  }

  beforeAll(async () => {
    cloudflare = await new CloudflareFake({
      tokens: [CF_TOKEN],
      zones: ['other.example.net', 'home.example.com'],
    }).start();
    test = await startFleetManager({ DNS_PROVIDER_API_URL: cloudflare.apiUrl });
    admin = await adminClient(test);
    alice = await userClient(test, admin, 'alice');
    siteId = (await admin.post('/sites', siteInput({ externalIp: SITE_IP }))).body.data.id;
    const otherSite = (await admin.post('/sites', siteInput({ name: 'Other' }))).body.data.id;
    await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    foreign = await addDomain(test, { name: 'other.example.net', siteId: otherSite, apiKey: CF_TOKEN });
    own = await addDomain(test, { name: 'home.example.com', siteId, apiKey: CF_TOKEN });
    await existingRecord('other.example.net', 'shop', 'A', '203.0.113.50');
    await existingRecord('other.example.net', 'blog', 'CNAME', 'blogs.example.org');
    await existingRecord('other.example.net', 'www', 'A', '203.0.113.50');
    await existingRecord('other.example.net', 'web', 'A', SITE_IP);
    await existingRecord('home.example.com', 'store', 'AAAA', '2001:db8::5');
  });
  afterAll(async () => {
    await test.close();
    await cloudflare.stop();
  });

  const http = (externalHostname: string, externalDomainId: number) => ({
    type: 'http',
    internalPort: 80,
    externalHostname,
    externalDomainId,
  });
  const create = (client: ManagerClient, hostname: string, service: Record<string, unknown>) =>
    client.post(`/sites/${siteId}/containers`, {
      hostname,
      template: 'debian:12',
      services: { web: service },
    });
  const namesAt = (zone: string) =>
    cloudflare.recordsOf(zone).map((record) => `${record.name} ${record.type}`);

  it('keeps the apex-adjacent names mail, certificates and name service need for administrators (403)', async () => {
    const before = namesAt('other.example.net');
    for (const label of [
      'www',
      'mail',
      'smtp',
      'imap',
      'pop',
      'mx',
      'ns',
      'ns1',
      'autodiscover',
      'autoconfig',
    ]) {
      for (const domain of [foreign, own]) {
        const answer = await create(alice, `r-${label}`, http(label, domain));
        expect(answer.status, `${label}: ${answer.text}`).toBe(403);
        expect(answer.body.error.code).toBe('forbidden');
        expect(answer.body.error.message).toMatch(/reserved for administrators/);
      }
    }
    for (const label of ['_acme-challenge', '_dmarc', '_domainkey', '_x']) {
      const answer = await create(alice, 'r-underscore', http(label, foreign));
      expect([400, 403], `${label}: ${answer.text}`).toContain(answer.status);
    }
    expect(namesAt('other.example.net')).toEqual(before);
    expect((await alice.get(`/sites/${siteId}/containers`)).body.data).toEqual([]);
  });

  it('refuses a name that already has another record at the DNS provider (409 naming it), for everyone', async () => {
    const before = namesAt('other.example.net');
    const cases: Array<[ManagerClient, string, number, RegExp]> = [
      [alice, 'shop', foreign, /shop\.other\.example\.net.*A 203\.0\.113\.50/],
      [alice, 'blog', foreign, /blog\.other\.example\.net.*CNAME blogs\.example\.org/],
      [admin, 'www', foreign, /www\.other\.example\.net.*A 203\.0\.113\.50/],
      [alice, 'store', own, /store\.home\.example\.com.*AAAA 2001:db8::5/],
    ];
    for (const [client, label, domain, named] of cases) {
      const answer = await create(client, `t-${label}`, http(label, domain));
      expect(answer.status, `${label}: ${answer.text}`).toBe(409);
      expect(answer.body.error.code).toBe('conflict');
      expect(answer.body.error.message).toMatch(named);
    }
    expect(namesAt('other.example.net')).toEqual(before);
    expect((await admin.get(`/sites/${siteId}/containers`)).body.data).toEqual([]);
  });

  it('a service added by an update is held to the same rules', async () => {
    const created = await create(alice, 'upd1', http('upd1', foreign));
    expect(created.status, created.text).toBe(201);
    expect(await jobEnds(alice, created.body.data.jobId)).toBe('success');
    const id = created.body.data.containerId as number;
    const put = (service: Record<string, unknown>) =>
      alice.put(`/sites/${siteId}/containers/${id}`, { services: { extra: service } });
    expect((await put(http('mail', foreign))).status).toBe(403);
    expect((await put(http('shop', foreign))).status).toBe(409);
    expect((await alice.get(`/sites/${siteId}/containers/${id}`)).body.data.services).toHaveLength(1);
  });

  it('an administrator may publish a reserved name that is free; a record already pointing here is fine', async () => {
    const mail = await create(admin, 'mailer', http('mail', foreign));
    expect(mail.status, mail.text).toBe(201);
    expect(await jobEnds(admin, mail.body.data.jobId)).toBe('success');
    expect(cloudflare.recordsOf('other.example.net')).toContainEqual(
      expect.objectContaining({ name: 'mail.other.example.net', type: 'A', content: SITE_IP }),
    );
    const web = await create(alice, 'web1', http('web', foreign));
    expect(web.status, web.text).toBe(201);
    expect(await jobEnds(alice, web.body.data.jobId)).toBe('success');
    expect(
      cloudflare.recordsOf('other.example.net').filter((r) => r.name === 'web.other.example.net'),
    ).toHaveLength(1);
  });

  it('the create job looks again: a record that appeared meanwhile is left alone, with a warning', async () => {
    await existingRecord('other.example.net', 'race', 'A', '203.0.113.60');
    // The request's look sees no record (it appears just after).
    cloudflare.replyNext(1, {
      method: 'GET',
      path: /\/dns_records$/,
      reply: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ success: true, errors: [], messages: [], result: [] }),
      },
    });
    const created = await create(alice, 'race1', http('race', foreign));
    expect(created.status, created.text).toBe(201);
    expect(await jobEnds(alice, created.body.data.jobId)).toBe('success');
    const outputs = (await alice.get(`/jobs/${created.body.data.jobId}/status`)).body.data as Array<{
      output: string;
    }>;
    expect(outputs.map((row) => row.output)).toContainEqual(
      expect.stringMatching(/race\.other\.example\.net.*already has another record \(A 203\.0\.113\.60\)/),
    );
    expect(
      cloudflare.recordsOf('other.example.net').filter((r) => r.name === 'race.other.example.net'),
    ).toEqual([expect.objectContaining({ type: 'A', content: '203.0.113.60' })]);
  });
});
