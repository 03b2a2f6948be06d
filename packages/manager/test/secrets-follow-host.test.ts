import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudflareFake, ProxmoxFake } from '@app/fakes';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { jobEnds } from './container-helpers.ts';
import { startMailSink } from './mail-sink.ts';

const NODE_SECRET = 'pve-token-secret-0001';
const SMTP_PASSWORD = 's3cret-smtp-pass';
const DNS_KEY = '0123456789abcdef0123456789abcdef01234';

/**
 * A stored secret (node token, SMTP password, DNS provider key) belongs to the place it was entered
 * for: pointing the setting elsewhere while the secret is left masked or blank drops it, so whoever may
 * edit the setting cannot have the manager hand the secret to a host of their choosing.
 */
describe('secrets follow their host', () => {
  let test: TestManager;
  let cloudflare: CloudflareFake;
  let admin: ManagerClient;
  let siteId: number;

  beforeAll(async () => {
    cloudflare = await new CloudflareFake({
      globalKeys: { 'ops@example.test': DNS_KEY, 'mallory@example.test': 'f'.repeat(37) },
      zones: ['other.example.net'],
    }).start();
    test = await startFleetManager({ DNS_PROVIDER_API_URL: cloudflare.apiUrl });
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput({ externalIp: '198.51.100.7' }))).body.data.id;
  });
  afterAll(async () => {
    await test.close();
    await cloudflare.stop();
  });

  describe("a node's apiUrl", () => {
    let home: ProxmoxFake;
    let stranger: ProxmoxFake;
    let nodeId: number;

    beforeAll(async () => {
      home = await new ProxmoxFake({ tokens: { 'root@pam!mgr': NODE_SECRET }, taskDurationMs: 0 }).start();
      stranger = await new ProxmoxFake({ tokens: { 'root@pam!mgr': 'another-secret' } }).start();
    });
    afterAll(async () => Promise.all([home.stop(), stranger.stop()]));

    const node = (apiUrl: string, extra: Record<string, unknown> = {}) => ({
      name: 'pve',
      apiUrl,
      tokenId: 'root@pam!mgr',
      ...extra,
    });
    const stats = async () => (await admin.get(`/sites/${siteId}/nodes/${nodeId}/stats`)).body.data;

    it('keeps the secret while the host stays, drops it when the host, port or scheme changes', async () => {
      const created = await admin.post(`/sites/${siteId}/nodes`, node(home.apiUrl, { secret: NODE_SECRET }));
      expect(created.status, created.text).toBe(201);
      nodeId = created.body.data.id;
      expect((await stats()).available).toBe(true);

      const sameHost = await admin.put(`/sites/${siteId}/nodes/${nodeId}`, node(`${home.url}/`));
      expect(sameHost.body.data.hasSecret).toBe(true);

      const moved = await admin.put(
        `/sites/${siteId}/nodes/${nodeId}`,
        node(stranger.apiUrl, { secret: '' }),
      );
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.data.hasSecret).toBe(false);
      expect((await admin.get(`/sites/${siteId}/nodes/${nodeId}`)).body.data.hasSecret).toBe(false);
      expect((await stats()).available).toBe(false);
      expect(JSON.stringify(stranger.requests)).not.toContain(NODE_SECRET);

      // Moving back does not bring it back: it is gone.
      const back = await admin.put(`/sites/${siteId}/nodes/${nodeId}`, node(home.apiUrl));
      expect(back.body.data.hasSecret).toBe(false);
    });

    it('keeps a secret entered again in the same request', async () => {
      const again = await admin.put(
        `/sites/${siteId}/nodes/${nodeId}`,
        node(stranger.apiUrl, { secret: 'another-secret' }),
      );
      expect(again.body.data.hasSecret).toBe(true);
      expect((await stats()).available).toBe(true);
      const https = await admin.put(
        `/sites/${siteId}/nodes/${nodeId}`,
        node(stranger.apiUrl.replace('http:', 'https:'), { tlsVerify: false }),
      );
      expect(https.body.data.hasSecret).toBe(false);
      expect((await admin.delete(`/sites/${siteId}/nodes/${nodeId}`)).status).toBe(204);
    });
  });

  describe('the SMTP URL', () => {
    it('a masked password is dropped when the host or port changes, and never reaches the new server', async () => {
      const first = await startMailSink({ acceptLogins: true });
      const second = await startMailSink({ acceptLogins: true });
      try {
        const saved = await admin.put('/settings', {
          smtpUrl: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:${first.port}`,
          smtpNoreplyAddress: 'noreply@example.test',
        });
        expect(saved.status, saved.text).toBe(200);
        expect((await admin.post('/users/invite', { email: 'one@example.test' })).status).toBe(200);
        expect(first.logins).toEqual([{ username: 'mailer', password: SMTP_PASSWORD }]);

        const shown = saved.body.data.smtpUrl as string;
        expect(shown).toBe(`smtp://mailer:********@127.0.0.1:${first.port}`);
        const moved = await admin.put('/settings', {
          smtpUrl: shown.replace(String(first.port), String(second.port)),
        });
        expect(moved.status, moved.text).toBe(200);
        expect(moved.body.data.smtpUrl).toBe(`smtp://mailer@127.0.0.1:${second.port}`);
        expect((await test.manager.services.settings.get()).smtpUrl).not.toContain(SMTP_PASSWORD);

        await admin.post('/users/invite', { email: 'two@example.test' });
        expect(JSON.stringify(second.logins)).not.toContain(SMTP_PASSWORD);

        // Entered again with the new host, it is kept.
        const entered = await admin.put('/settings', {
          smtpUrl: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:${second.port}`,
        });
        expect(entered.body.data.smtpUrl).toBe(`smtp://mailer:********@127.0.0.1:${second.port}`);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });
  });

  describe("an external domain's DNS provider key", () => {
    let otherSite: number;

    beforeAll(async () => {
      otherSite = (await admin.post('/sites', siteInput({ name: 'Other' }))).body.data.id;
      await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
    });

    it('is dropped when the account it is sent with changes, and never sent with the new one', async () => {
      const domain = {
        name: 'other.example.net',
        siteId: otherSite,
        dnsProviderApiEmail: 'ops@example.test',
      };
      const created = await admin.post('/external-domains', { ...domain, dnsProviderApiKey: DNS_KEY });
      expect(created.status, created.text).toBe(201);
      const id = created.body.data.id as number;
      const kept = await admin.put(`/external-domains/${id}`, { ...domain, dnsProviderApiKey: '' });
      expect(kept.body.data.hasDnsProviderApiKey).toBe(true);

      const moved = await admin.put(`/external-domains/${id}`, {
        ...domain,
        dnsProviderApiEmail: 'mallory@example.test',
      });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.data.hasDnsProviderApiKey).toBe(false);

      const container = await admin.post(`/sites/${siteId}/containers`, {
        hostname: 'web1',
        template: 'debian:12',
        services: { web: { type: 'http', internalPort: 80, externalHostname: 'web1', externalDomainId: id } },
      });
      expect(container.status, container.text).toBe(201);
      expect(await jobEnds(admin, container.body.data.jobId)).toBe('success');
      expect(JSON.stringify(cloudflare.requests)).not.toContain(DNS_KEY);

      const entered = await admin.put(`/external-domains/${id}`, {
        ...domain,
        dnsProviderApiEmail: 'mallory@example.test',
        dnsProviderApiKey: 'f'.repeat(37),
      });
      expect(entered.body.data.hasDnsProviderApiKey).toBe(true);
    });
  });
});
