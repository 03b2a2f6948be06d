import { conflict, forbidden } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';
import type { ExternalDomainsRepository } from '../external-domains/external-domains-repository.ts';
import type { CloudflareClient, DnsRecord } from './cloudflare-client.ts';
import type { HttpName, SiteTarget } from './cross-site-dns.ts';
import { reservedNameReason } from './reserved-names.ts';

/** Records at a name other than the A record pointing at `ip` (which is what the manager would add). */
export const foreignRecords = (records: DnsRecord[], ip: string | null) =>
  records.filter((record) => !(record.type === 'A' && record.content === ip));

export const describeRecords = (records: DnsRecord[]) =>
  records.map((record) => `${record.type} ${record.content}`).join(', ');

/**
 * Who may publish an HTTP service under which name of an external domain: names the domain's web site,
 * mail, certificates and name service use are for administrators (403), and nobody may take a name
 * that already has another record at the DNS provider (409 naming it). Checked when a service is
 * asked for; the A record itself is only ever added after the same look (CrossSiteDns.ensure).
 */
export class HttpNameGuard {
  constructor(
    private readonly domains: ExternalDomainsRepository,
    private readonly client: CloudflareClient,
  ) {}

  async admit(principal: Principal, site: SiteTarget, names: HttpName[]): Promise<void> {
    for (const name of names) {
      const domain = await this.domains.credentials(name.externalDomainId);
      if (!domain) continue;
      const fqdn = `${name.externalHostname}.${domain.name}`;
      const reserved = reservedNameReason(name.externalHostname);
      if (reserved && !principal.isAdmin) {
        throw forbidden(`${fqdn} is reserved for administrators: ${reserved}. Choose another name.`);
      }
      if (!domain.apiKey) continue;
      const records = await this.recordsAt(
        { apiEmail: domain.apiEmail, apiKey: domain.apiKey },
        domain.name,
        fqdn,
      );
      const taken = foreignRecords(records ?? [], site.externalIp);
      if (taken.length) {
        throw conflict(
          `${fqdn} already has a DNS record at the DNS provider (${describeRecords(taken)}); choose another name.`,
          { externalHostname: 'already has a DNS record' },
        );
      }
    }
  }

  /** The name's records, or undefined when the provider cannot tell now (the job looks again). */
  private async recordsAt(
    credentials: { apiEmail: string | null; apiKey: string },
    zone: string,
    fqdn: string,
  ) {
    try {
      return await this.client.findRecords(credentials, await this.client.zoneId(credentials, zone), fqdn);
    } catch {
      return undefined;
    }
  }
}
