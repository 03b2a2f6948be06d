import { SecretBox } from '@app/server-kit';
import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryExternalDomainsRepository } from '../testing/in-memory-external-domains-repository.ts';
import { UNAUDITED } from '../testing/unaudited.ts';
import { ExternalDomainsService } from './external-domains-service.ts';

const SITE = 7;

describe('ExternalDomainsService', () => {
  let repository: InMemoryExternalDomainsRepository;
  let secrets: SecretBox;
  let domains: ExternalDomainsService;

  beforeEach(() => {
    repository = new InMemoryExternalDomainsRepository();
    repository.sites.set(SITE, 'Berlin');
    secrets = new SecretBox('unit-spec-secret');
    domains = new ExternalDomainsService(
      repository,
      { exists: async (id) => repository.sites.has(id) },
      secrets,
      UNAUDITED,
    );
  });

  const storedKey = (id: number) => {
    const sealed = repository.rows.find((row) => row.id === id)!.dns_provider_api_key_sealed;
    return sealed && secrets.open(sealed);
  };

  it('creates a domain in lower case with its site, and keeps the provider key sealed and unshown', async () => {
    const created = await domains.create({
      name: ' Apps.Example.COM ',
      acmeEmail: 'ops@example.com',
      dnsProviderApiEmail: 'dns@example.com',
      dnsProviderApiKey: 'cf-secret',
      siteId: SITE,
      authServer: 'http://127.0.0.1:4180',
    });
    expect(created).toMatchObject({
      name: 'apps.example.com',
      site: { id: SITE, name: 'Berlin' },
      hasDnsProviderApiKey: true,
      authServer: 'http://127.0.0.1:4180',
    });
    expect(JSON.stringify(created)).not.toContain('cf-secret');
    expect(JSON.stringify(repository.rows)).not.toContain('cf-secret');
    expect(storedKey(created.id)).toBe('cf-secret');
  });

  it('names every invalid field at once (422 validation_failed) and stores nothing', async () => {
    const attempt = domains.create({
      name: 'localhost',
      acmeEmail: 'not-an-address',
      acmeDirectoryUrl: 'ftp://acme.example',
      authServer: 'http://127.0.0.1:4180/;return 200',
      siteId: 99,
    });
    await expect(attempt).rejects.toMatchObject({
      statusCode: 422,
      code: 'validation_failed',
      fields: {
        name: expect.any(String),
        acmeEmail: expect.any(String),
        acmeDirectoryUrl: expect.any(String),
        authServer: expect.any(String),
        siteId: 'names a site that does not exist',
      },
    });
    expect(repository.rows).toEqual([]);
  });

  it('treats blank optional fields as unset', async () => {
    const created = await domains.create({ name: 'example.org', acmeEmail: '  ', authServer: '' });
    expect(created).toMatchObject({
      acmeEmail: null,
      authServer: null,
      site: null,
      hasDnsProviderApiKey: false,
    });
  });

  describe('update', () => {
    let id: number;
    beforeEach(async () => {
      id = (
        await domains.create({
          name: 'example.org',
          dnsProviderApiEmail: 'dns@example.org',
          dnsProviderApiKey: 'k1',
        })
      ).id;
    });

    it('keeps the stored provider key when none is sent for the same account', async () => {
      await domains.update(id, { name: 'example.org', dnsProviderApiEmail: 'dns@example.org' });
      expect(storedKey(id)).toBe('k1');
    });

    it('drops the stored provider key when the account changes without a new key', async () => {
      const updated = await domains.update(id, {
        name: 'example.org',
        dnsProviderApiEmail: 'other@example.org',
      });
      expect(updated.hasDnsProviderApiKey).toBe(false);
      expect(storedKey(id)).toBeNull();
    });

    it('replaces the key when a new one is sent', async () => {
      await domains.update(id, {
        name: 'example.org',
        dnsProviderApiEmail: 'other@example.org',
        dnsProviderApiKey: 'k2',
      });
      expect(storedKey(id)).toBe('k2');
    });

    it('answers 404 for a domain that does not exist', async () => {
      await expect(domains.update(id + 1, { name: 'example.net' })).rejects.toMatchObject({
        statusCode: 404,
        code: 'not_found',
      });
    });
  });

  it('refuses to delete a domain HTTP services still use (409 in_use), and deletes it once they are gone', async () => {
    const { id } = await domains.create({ name: 'example.org' });
    repository.inUse.add(id);
    await expect(domains.delete(id)).rejects.toMatchObject({ statusCode: 409, code: 'in_use' });
    expect(await domains.get(id)).toMatchObject({ name: 'example.org' });
    repository.inUse.delete(id);
    await domains.delete(id);
    await expect(domains.get(id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(domains.delete(id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('lists the domains by name', async () => {
    await domains.create({ name: 'zeta.example' });
    await domains.create({ name: 'alpha.example' });
    expect((await domains.list()).map((domain) => domain.name)).toEqual(['alpha.example', 'zeta.example']);
  });
});
