import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { SecretBox } from '@app/server-kit';
import type { ExternalDomainsTable, ManagerDB } from '../db/schema.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

export interface ExternalDomain {
  id: number;
  name: string;
  siteId: number | null;
  authServer: string | null;
}

/** What the DNS provider needs for one domain: its credentials, opened. Never leaves the server. */
export interface DomainCredentials extends ExternalDomain {
  apiEmail: string | null;
  apiKey: string | null;
  acmeEmail: string | null;
}

/** A domain row with its site's name, as the external-domain endpoints show it. */
export type DomainWithSite = Selectable<ExternalDomainsTable> & { site_name: string | null };

/** `external_domains`: the reads the container code needs, and the endpoints' reads and writes. */
export class ExternalDomainsRepository {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly secrets: SecretBox,
  ) {}

  private withSite() {
    return this.db
      .selectFrom('external_domains')
      .leftJoin('sites', 'sites.id', 'external_domains.site_id')
      .selectAll('external_domains')
      .select('sites.name as site_name');
  }

  listWithSites(): Promise<DomainWithSite[]> {
    return this.withSite().orderBy('external_domains.name').execute();
  }

  withSiteById(id: number): Promise<DomainWithSite | undefined> {
    return this.withSite().where('external_domains.id', '=', id).executeTakeFirst();
  }

  async insert(values: Insertable<ExternalDomainsTable>, db: Db = this.db): Promise<number> {
    const row = await db
      .insertInto('external_domains')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The DNS provider account e-mail of the domain, or undefined when there is no such domain. */
  async providerEmail(id: number): Promise<{ email: string | null } | undefined> {
    const row = await this.db
      .selectFrom('external_domains')
      .select('dns_provider_api_email')
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { email: row.dns_provider_api_email };
  }

  /** False when there is no such domain. */
  async update(id: number, values: Updateable<ExternalDomainsTable>, db: Db = this.db): Promise<boolean> {
    const result = await db
      .updateTable('external_domains')
      .set(values)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** False when there is no such domain. */
  async delete(id: number, db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('external_domains').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async byIds(ids: number[], db: Db = this.db): Promise<Map<number, ExternalDomain>> {
    if (!ids.length) return new Map();
    const rows = await db.selectFrom('external_domains').selectAll().where('id', 'in', ids).execute();
    return new Map(rows.map((row) => [row.id, toDomain(row)]));
  }

  /** Every domain, the site's own first (the new-container form lists them in this order). */
  async forForm(siteId: number): Promise<ExternalDomain[]> {
    const rows = await this.db.selectFrom('external_domains').selectAll().orderBy('id').execute();
    const domains = rows.map(toDomain);
    return [
      ...domains.filter((domain) => domain.siteId === siteId),
      ...domains.filter((domain) => domain.siteId !== siteId),
    ];
  }

  /** Name of the site's first own domain (the SSH host of its containers), if any. */
  async primaryNameOf(siteId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('external_domains')
      .select('name')
      .where('site_id', '=', siteId)
      .orderBy('id')
      .executeTakeFirst();
    return row?.name ?? null;
  }

  async credentials(id: number): Promise<DomainCredentials | undefined> {
    return this.credentialsWhere('id', id);
  }

  async credentialsByName(name: string): Promise<DomainCredentials | undefined> {
    return this.credentialsWhere('name', name);
  }

  private async credentialsWhere(
    column: 'id' | 'name',
    value: number | string,
  ): Promise<DomainCredentials | undefined> {
    const row = await this.db
      .selectFrom('external_domains')
      .selectAll()
      .where(column, '=', value)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      ...toDomain(row),
      apiEmail: row.dns_provider_api_email,
      apiKey: row.dns_provider_api_key_sealed ? this.secrets.open(row.dns_provider_api_key_sealed) : null,
      acmeEmail: row.acme_email,
    };
  }
}

const toDomain = (row: Selectable<ExternalDomainsTable>): ExternalDomain => ({
  id: row.id,
  name: row.name,
  siteId: row.site_id,
  authServer: row.auth_server,
});
