import type { Kysely, Selectable, Transaction } from 'kysely';
import { isForeignKeyViolation, validationFailed } from '@app/server-kit';
import type { ManagerDB, SitesTable } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import { siteRuleViolations, type SiteNetwork } from './network-rules.ts';
import { fail } from '../errors/catalogue.ts';
import type { SitesRepository } from './sites-repository.ts';
import type { AuditLog } from '../audit/audit-log.ts';

export interface Site extends SiteNetwork {
  id: number;
  /** Present on list and show answers only. */
  nodeCount?: number;
}

export type SiteInput = SiteNetwork;

export const siteNotFound = () => fail('site_not_found', 'Site not found.');

export class SitesService {
  constructor(
    private readonly repo: SitesRepository,
    private readonly audit: AuditLog,
  ) {}

  async list(): Promise<Site[]> {
    return (await this.repo.listWithNodeCounts()).map((row) => ({
      ...toSite(row),
      nodeCount: Number(row.node_count),
    }));
  }

  async get(id: number): Promise<Site> {
    const row = await this.repo.withNodeCountById(id);
    if (!row) throw siteNotFound();
    return { ...toSite(row), nodeCount: Number(row.node_count) };
  }

  exists(id: number, db?: Kysely<ManagerDB> | Transaction<ManagerDB>): Promise<boolean> {
    return this.repo.exists(id, db);
  }

  /** Throws 404 site_not_found unless the site exists. */
  async assertExists(id: number, db?: Kysely<ManagerDB> | Transaction<ManagerDB>): Promise<void> {
    if (!(await this.exists(id, db))) throw siteNotFound();
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  async create(input: SiteInput, db?: Kysely<ManagerDB> | Transaction<ManagerDB>): Promise<Site> {
    const now = nowIso();
    const values = { ...toColumns(checked(input)), created_at: now, updated_at: now };
    const row = db
      ? await this.repo.insert(values, db)
      : await this.audit.audited(
          (trx) => this.repo.insert(values, trx),
          (created) => ({ type: 'site', id: created.id, siteId: created.id }),
        );
    return toSite(row);
  }

  /** Full update: every field is replaced, so an omitted externalIp is cleared. */
  async update(id: number, input: SiteInput): Promise<Site> {
    const values = { ...toColumns(checked(input)), updated_at: nowIso() };
    const row = await this.audit.audited((trx) => this.repo.update(id, values, trx));
    if (!row) throw siteNotFound();
    return toSite(row);
  }

  async delete(id: number): Promise<void> {
    if ((await this.repo.nodeCount(id)) > 0) throw hasNodes();
    try {
      if (!(await this.audit.audited((trx) => this.repo.delete(id, trx)))) throw siteNotFound();
    } catch (error) {
      // A node added between the count and the delete: the foreign key is the judge.
      if (isForeignKeyViolation(error)) throw hasNodes();
      throw error;
    }
  }
}

const hasNodes = () => fail('has_nodes', 'Delete or move the nodes of this site first.');

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
