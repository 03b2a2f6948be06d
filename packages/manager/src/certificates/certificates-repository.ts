import { sql, type Kysely, type Transaction } from 'kysely';
import type { CertificatesTable, ManagerDB } from '../db/schema.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

export interface CertificateWithSite extends CertificatesTable {
  site_name: string;
}

/** The certificates the site agents report, per site and host name. */
export class CertificatesRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  ofSite(db: Db, siteId: number): Promise<CertificatesTable[]> {
    return db.selectFrom('certificates').selectAll().where('site_id', '=', siteId).execute();
  }

  /** Makes the site's rows exactly `rows`: the hosts it no longer reports go. */
  async replaceOfSite(db: Db, siteId: number, rows: CertificatesTable[]): Promise<void> {
    let remove = db.deleteFrom('certificates').where('site_id', '=', siteId);
    if (rows.length)
      remove = remove.where(
        'hostname',
        'not in',
        rows.map((row) => row.hostname),
      );
    await remove.execute();
    for (const row of rows) {
      const { site_id: _site, hostname: _host, ...changes } = row;
      await db
        .insertInto('certificates')
        .values(row)
        .onConflict((oc) => oc.columns(['site_id', 'hostname']).doUpdateSet(changes))
        .execute();
    }
  }

  /** The certificates of the HTTP services published under the external domain, and its wildcard. */
  ofDomain(domainId: number): Promise<CertificateWithSite[]> {
    const hostnames = this.db
      .selectFrom('http_services')
      .innerJoin('external_domains', 'external_domains.id', 'http_services.external_domain_id')
      .where('external_domains.id', '=', domainId)
      .select(sql<string>`http_services.external_hostname || '.' || external_domains.name`.as('hostname'));
    const wildcard = this.db
      .selectFrom('external_domains')
      .where('id', '=', domainId)
      .select(sql<string>`'*.' || name`.as('hostname'));
    return this.db
      .selectFrom('certificates')
      .innerJoin('sites', 'sites.id', 'certificates.site_id')
      .selectAll('certificates')
      .select('sites.name as site_name')
      .where((eb) =>
        eb.or([eb('certificates.hostname', 'in', hostnames), eb('certificates.hostname', 'in', wildcard)]),
      )
      .orderBy('certificates.hostname')
      .orderBy('certificates.site_id')
      .execute();
  }
}
