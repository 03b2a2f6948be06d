import { forbidden } from '@app/server-kit';
import { fail } from '../errors/catalogue.ts';
import type { CloudflareClient } from '../dns/cloudflare-client.ts';
import type { ExternalDomainsRepository } from '../external-domains/external-domains-repository.ts';

/** TXT content may come back quoted (Cloudflare keeps what was sent, quotes included). */
const unquoted = (content: string) => content.replace(/^"(.*)"$/, '$1');

/**
 * The `_acme-challenge` TXT records a site agent needs for a DNS-01 order (a wildcard certificate of
 * one of its site's external domains), set at the domain's DNS provider with the domain's key: the
 * agent never holds the key, and can touch no other name.
 */
export class AcmeDnsChallenges {
  constructor(
    private readonly domains: Pick<ExternalDomainsRepository, 'credentialsByName'>,
    private readonly client: Pick<CloudflareClient, 'zoneId' | 'findRecords' | 'createTxt' | 'deleteRecord'>,
  ) {}

  /**
   * Makes the TXT records of `_acme-challenge.<domain>` exactly `values` (none: the order is over).
   * `onlySite`: the caller is that site's agent.
   */
  async publish(siteId: number, domainName: string, values: string[], onlySite?: number): Promise<void> {
    if (onlySite !== undefined && siteId !== onlySite)
      throw forbidden(
        `This agent token belongs to site ${onlySite}: it answers challenges for that site only.`,
      );
    const domain = await this.domains.credentialsByName(domainName.toLowerCase());
    if (!domain || domain.siteId !== siteId)
      throw fail('not_found', `Site ${siteId} has no external domain named ${domainName}.`);
    if (!domain.apiKey || !domain.acmeEmail) throw fail('dns_challenge_unavailable');
    const credentials = { apiEmail: domain.apiEmail, apiKey: domain.apiKey };
    const name = `_acme-challenge.${domain.name}`;
    try {
      const zoneId = await this.client.zoneId(credentials, domain.name);
      const records = (await this.client.findRecords(credentials, zoneId, name)).filter(
        (r) => r.type === 'TXT',
      );
      const present = new Set(records.map((record) => unquoted(record.content)));
      for (const record of records) {
        if (!values.includes(unquoted(record.content)))
          await this.client.deleteRecord(credentials, zoneId, record.id);
      }
      for (const value of new Set(values)) {
        if (!present.has(value)) await this.client.createTxt(credentials, zoneId, name, value);
      }
    } catch (error) {
      throw fail('dns_provider_error', `${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
