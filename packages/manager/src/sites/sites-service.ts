import type { Kysely, Selectable, Transaction } from 'kysely';
import { conflict, isForeignKeyViolation, notFound, validationFailed } from '@app/server-kit';
import type { ManagerDB, SitesTable } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import { siteRuleViolations, type SiteNetwork } from './network-rules.ts';

export interface Site extends SiteNetwork {
  id: number;
  /** Present on list and show answers only. */
  nodeCount?: number;
}

export type SiteInput = SiteNetwork;

export const siteNotFound = () => notFound('Site not found.', 'site_not_found');

export class SitesService {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  private withCounts() {
    return this.db
      .selectFrom('sites')
      .selectAll('sites')
      .select((eb) =>
        eb
          .selectFrom('nodes')
          .whereRef('nodes.site_id', '=', 'sites.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('node_count'),
      )
      .orderBy('sites.id');
  }

  async list(): Promise<Site[]> {
    return (await this.withCounts().execute()).map((row) => ({
      ...toSite(row),
      nodeCount: Number(row.node_count),
    }));
  }

  async get(id: number): Promise<Site> {
    const row = await this.withCounts().where('sites.id', '=', id).executeTakeFirst();
    if (!row) throw siteNotFound();
    return { ...toSite(row), nodeCount: Number(row.node_count) };
  }

  /** Throws 404 site_not_found unless the site exists. */
  async assertExists(id: number, db: Kysely<ManagerDB> | Transaction<ManagerDB> = this.db): Promise<void> {
    const row = await db.selectFrom('sites').select('id').where('id', '=', id).executeTakeFirst();
    if (!row) throw siteNotFound();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('sites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async create(input: SiteInput, db: Kysely<ManagerDB> | Transaction<ManagerDB> = this.db): Promise<Site> {
    const now = nowIso();
    const row = await db
      .insertInto('sites')
      .values({ ...toColumns(checked(input)), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSite(row);
  }

  /** Full update: every field is replaced, so an omitted externalIp is cleared. */
  async update(id: number, input: SiteInput): Promise<Site> {
    const row = await this.db
      .updateTable('sites')
      .set({ ...toColumns(checked(input)), updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw siteNotFound();
    return toSite(row);
  }

  async delete(id: number): Promise<void> {
    const nodes = await this.db
      .selectFrom('nodes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('site_id', '=', id)
      .executeTakeFirstOrThrow();
    if (Number(nodes.n) > 0) throw hasNodes();
    try {
      const result = await this.db.deleteFrom('sites').where('id', '=', id).executeTakeFirst();
      if (!Number(result.numDeletedRows)) throw siteNotFound();
    } catch (error) {
      // A node added between the count and the delete: the foreign key is the judge.
      if (isForeignKeyViolation(error)) throw hasNodes();
      throw error;
    }
  }
}

const hasNodes = () => conflict('Delete or move the nodes of this site first.', undefined, 'has_nodes');

/** The input with surrounding whitespace trimmed (never stored), once it passed the site rules. */
function checked(input: SiteInput): SiteInput {
  const site: SiteInput = {
    name: input.name.trim(),
    internalDomain: input.internalDomain.trim(),
    dhcpRange: input.dhcpRange.trim(),
    subnetMask: input.subnetMask.trim(),
    gateway: input.gateway.trim(),
    dnsForwarders: input.dnsForwarders.trim(),
    externalIp: input.externalIp?.trim() ?? null,
  };
  const fields = siteRuleViolations(site);
  if (Object.keys(fields).length) throw validationFailed(fields);
  return site;
}

const toColumns = (input: SiteInput) => ({
  name: input.name,
  internal_domain: input.internalDomain,
  dhcp_range: input.dhcpRange,
  subnet_mask: input.subnetMask,
  gateway: input.gateway,
  dns_forwarders: input.dnsForwarders,
  external_ip: input.externalIp,
});

export const toSite = (row: Selectable<SitesTable>): Site => ({
  id: row.id,
  name: row.name,
  internalDomain: row.internal_domain,
  dhcpRange: row.dhcp_range,
  subnetMask: row.subnet_mask,
  gateway: row.gateway,
  dnsForwarders: row.dns_forwarders,
  externalIp: row.external_ip,
});
