import type { Insertable, Updateable } from 'kysely';
import type { ExternalDomainsTable } from '../db/schema.ts';
import type { DomainWithSite } from '../external-domains/external-domains-repository.ts';
import type { ExternalDomainsStore } from '../external-domains/external-domains-service.ts';

type DomainRow = Omit<DomainWithSite, 'site_name'>;

/** What SQLite says when ON DELETE RESTRICT stops the deletion of a row others still reference. */
const stillReferenced = () =>
  Object.assign(new Error('FOREIGN KEY constraint failed'), { code: 'SQLITE_CONSTRAINT_TRIGGER' });

/** The optional columns as the database leaves them when an insert does not name them. */
const UNSET = {
  acme_email: null,
  acme_directory_url: null,
  dns_provider_api_email: null,
  dns_provider_api_key_sealed: null,
  site_id: null,
  auth_server: null,
};

/**
 * External domains in memory, joined with the site names in `sites`; a domain in `inUse` (HTTP services
 * publish on it) cannot be deleted, as the foreign key of `http_services` forbids.
 */
export class InMemoryExternalDomainsRepository implements ExternalDomainsStore {
  readonly rows: DomainRow[] = [];
  /** Site id → site name. */
  readonly sites = new Map<number, string>();
  readonly inUse = new Set<number>();
  private lastId = 0;

  async listWithSites(): Promise<DomainWithSite[]> {
    return [...this.rows].sort((a, b) => a.name.localeCompare(b.name)).map((row) => this.withSite(row));
  }

  async withSiteById(id: number): Promise<DomainWithSite | undefined> {
    const row = this.rows.find((candidate) => candidate.id === id);
    return row && this.withSite(row);
  }

  async insert(values: Insertable<ExternalDomainsTable>): Promise<number> {
    this.lastId += 1;
    this.rows.push({ ...UNSET, ...values, id: this.lastId });
    return this.lastId;
  }

  async providerEmail(id: number): Promise<{ email: string | null } | undefined> {
    const row = this.rows.find((candidate) => candidate.id === id);
    return row && { email: row.dns_provider_api_email };
  }

  async update(id: number, values: Updateable<ExternalDomainsTable>): Promise<boolean> {
    const row = this.rows.find((candidate) => candidate.id === id);
    if (row) Object.assign(row, values);
    return Boolean(row);
  }

  async delete(id: number): Promise<boolean> {
    const index = this.rows.findIndex((row) => row.id === id);
    if (index < 0) return false;
    if (this.inUse.has(id)) throw stillReferenced();
    this.rows.splice(index, 1);
    return true;
  }

  private withSite(row: DomainRow): DomainWithSite {
    return { ...row, site_name: row.site_id === null ? null : (this.sites.get(row.site_id) ?? null) };
  }
}
