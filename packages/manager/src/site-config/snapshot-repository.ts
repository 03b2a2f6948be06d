import type { Kysely } from 'kysely';
import type { ManagerDB } from '../db/schema.ts';

/**
 * The services of the site's containers (services ⋈ containers ⋈ nodes), by service id, with the
 * columns every kind needs; each caller joins its kind's table and selects the rest.
 */
function siteServices(db: Kysely<ManagerDB>, siteId: number) {
  return db
    .selectFrom('services')
    .innerJoin('containers', 'containers.id', 'services.container_id')
    .innerJoin('nodes', 'nodes.id', 'containers.node_id')
    .select(['services.id as service_id', 'services.internal_port'])
    .where('nodes.site_id', '=', siteId)
    .orderBy('services.id');
}

/** The reads of a site's snapshot: the site, its nodes, containers, services, domains and volumes. */
export class SnapshotRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  /**
   * The rows of one site's configuration in a fixed number of queries, whatever its size; undefined
   * when there is no such site.
   */
  async ofSite(siteId: number) {
    const site = await this.db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
    if (!site) return undefined;
    const [nodes, containers, http, transport, dns, domains, volumes, removals] = await Promise.all([
      this.db
        .selectFrom('nodes')
        .select(['name', 'ipv4_address'])
        .where('site_id', '=', siteId)
        .orderBy('name')
        .execute(),
      this.db
        .selectFrom('containers')
        .innerJoin('nodes', 'nodes.id', 'containers.node_id')
        .select(['containers.id', 'containers.hostname', 'containers.ipv4_address', 'containers.mac_address'])
        .where('nodes.site_id', '=', siteId)
        .orderBy('containers.id')
        .execute(),
      siteServices(this.db, siteId)
        .innerJoin('http_services', 'http_services.service_id', 'services.id')
        .innerJoin('external_domains', 'external_domains.id', 'http_services.external_domain_id')
        .select([
          'http_services.external_hostname',
          'http_services.backend_protocol',
          'http_services.auth_required',
          'http_services.redirect_https',
          'http_services.hsts',
          'external_domains.name as domain',
          'external_domains.auth_server',
          'containers.ipv4_address',
        ])
        .execute(),
      siteServices(this.db, siteId)
        .innerJoin('transport_services', 'transport_services.service_id', 'services.id')
        .select([
          'transport_services.protocol',
          'transport_services.external_port',
          'containers.ipv4_address',
        ])
        .execute(),
      siteServices(this.db, siteId)
        .innerJoin('dns_services', 'dns_services.service_id', 'services.id')
        .select(['dns_services.dns_name', 'containers.hostname'])
        .execute(),
      this.db
        .selectFrom('external_domains')
        .select(['id', 'name', 'site_id', 'acme_email', 'acme_directory_url'])
        .select((eb) => eb('dns_provider_api_key_sealed', 'is not', null).as('has_dns_key'))
        .orderBy('id')
        .execute(),
      this.db
        .selectFrom('volumes')
        .innerJoin('containers', 'containers.id', 'volumes.container_id')
        .innerJoin('nodes', 'nodes.id', 'containers.node_id')
        .select([
          'volumes.id',
          'volumes.name',
          'volumes.host_path',
          'volumes.mode',
          'volumes.status',
          'volumes.host_uid',
          'volumes.host_gid',
          'containers.hostname',
        ])
        .where('nodes.site_id', '=', siteId)
        .orderBy('volumes.id')
        .execute(),
      this.db
        .selectFrom('kept_volumes')
        .select(['id', 'host_path'])
        .where('site_id', '=', siteId)
        .where('status', '=', 'removing')
        // A new container of the same hostname and owner has the folder again: it stays.
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('volumes')
                .select('volumes.id')
                .whereRef('volumes.host_path', '=', 'kept_volumes.host_path'),
            ),
          ),
        )
        .orderBy('id')
        .execute(),
    ]);
    return { site, nodes, containers, http, transport, dns, domains, volumes, removals };
  }
}
