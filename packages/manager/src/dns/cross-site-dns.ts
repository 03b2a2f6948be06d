import type { ExternalDomainsRepository } from '../external-domains/external-domains-repository.ts';
import type { CloudflareClient, DnsCredentials } from './cloudflare-client.ts';
import { describeRecords, foreignRecords } from './http-name-guard.ts';

export interface HttpName {
  externalHostname: string;
  externalDomainId: number;
}

export interface SiteTarget {
  id: number;
  externalIp: string | null;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A records for HTTP services whose external domain belongs to another site: that site's DNS does not
 * know this site's proxy, so the name must point at this site's external IP. Every failure becomes a
 * warning for the caller to report; the container's own write never depends on the DNS provider.
 */
export class CrossSiteDns {
  constructor(
    private readonly domains: ExternalDomainsRepository,
    private readonly client: CloudflareClient,
  ) {}

  /** Adds the A record unless the name has it already; never beside another record of the name. */
  ensure(site: SiteTarget, names: HttpName[]): Promise<string[]> {
    return this.each(site, names, 'create', async (credentials, zoneId, fqdn, ip) => {
      const existing = await this.client.findRecords(credentials, zoneId, fqdn);
      const taken = foreignRecords(existing, ip);
      if (taken.length) throw new Error(`the name already has another record (${describeRecords(taken)})`);
      if (!existing.length) await this.client.createA(credentials, zoneId, fqdn, ip);
    });
  }

  remove(site: SiteTarget, names: HttpName[]): Promise<string[]> {
    return this.each(site, names, 'remove', async (credentials, zoneId, fqdn, ip) => {
      for (const record of await this.client.findRecords(credentials, zoneId, fqdn)) {
        if (record.type === 'A' && record.content === ip)
          await this.client.deleteRecord(credentials, zoneId, record.id);
      }
    });
  }

  private async each(
    site: SiteTarget,
    names: HttpName[],
    verb: string,
    work: (credentials: DnsCredentials, zoneId: string, fqdn: string, ip: string) => Promise<void>,
  ): Promise<string[]> {
    const warnings: string[] = [];
    for (const name of names) {
      const domain = await this.domains.credentials(name.externalDomainId);
      if (!domain || domain.siteId === null || domain.siteId === site.id) continue;
      const fqdn = `${name.externalHostname}.${domain.name}`;
      if (!site.externalIp) {
        warnings.push(`Could not ${verb} the DNS record for ${fqdn}: this site has no external IP.`);
        continue;
      }
      if (!domain.apiKey) {
        warnings.push(
          `Could not ${verb} the DNS record for ${fqdn}: ${domain.name} has no DNS provider key.`,
        );
        continue;
      }
      const credentials = { apiEmail: domain.apiEmail, apiKey: domain.apiKey };
      try {
        const zoneId = await this.client.zoneId(credentials, domain.name);
        await work(credentials, zoneId, fqdn, site.externalIp);
      } catch (error) {
        warnings.push(`Could not ${verb} the DNS record for ${fqdn}: ${describe(error)}`);
      }
    }
    return warnings;
  }
}
