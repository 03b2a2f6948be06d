import type { Kysely, Selectable, Transaction } from 'kysely';
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
}

/**
 * Reads of `external_domains` the container code needs. The external-domain endpoints (site-agent
 * issue) add their writes beside these.
 */
export class ExternalDomainsRepository {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly secrets: SecretBox,
  ) {}

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
    const row = await this.db
      .selectFrom('external_domains')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      ...toDomain(row),
      apiEmail: row.dns_provider_api_email,
      apiKey: row.dns_provider_api_key_sealed ? this.secrets.open(row.dns_provider_api_key_sealed) : null,
    };
  }
}

const toDomain = (row: Selectable<ExternalDomainsTable>): ExternalDomain => ({
  id: row.id,
  name: row.name,
  siteId: row.site_id,
  authServer: row.auth_server,
});
