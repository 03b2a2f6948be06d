import type { Kysely } from 'kysely';
import type { HttpServiceEntry, Snapshot, StreamServiceEntry } from '@app/agent/snapshot';
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

/** Reads one site's configuration in a fixed number of queries, whatever its size. */
export async function buildSnapshot(db: Kysely<ManagerDB>, siteId: number): Promise<Snapshot | undefined> {
  const site = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  if (!site) return undefined;
  const [nodes, containers, http, transport, dns, domains, volumes] = await Promise.all([
    db
      .selectFrom('nodes')
      .select(['name', 'ipv4_address'])
      .where('site_id', '=', siteId)
      .orderBy('name')
      .execute(),
    db
      .selectFrom('containers')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .select(['containers.id', 'containers.hostname', 'containers.ipv4_address', 'containers.mac_address'])
      .where('nodes.site_id', '=', siteId)
      .orderBy('containers.id')
      .execute(),
    siteServices(db, siteId)
      .innerJoin('http_services', 'http_services.service_id', 'services.id')
      .innerJoin('external_domains', 'external_domains.id', 'http_services.external_domain_id')
      .select([
        'http_services.external_hostname',
        'http_services.backend_protocol',
        'http_services.auth_required',
        'external_domains.name as domain',
        'external_domains.auth_server',
        'containers.ipv4_address',
      ])
      .execute(),
    siteServices(db, siteId)
      .innerJoin('transport_services', 'transport_services.service_id', 'services.id')
      .select(['transport_services.protocol', 'transport_services.external_port', 'containers.ipv4_address'])
      .execute(),
    siteServices(db, siteId)
      .innerJoin('dns_services', 'dns_services.service_id', 'services.id')
      .select(['dns_services.dns_name', 'containers.hostname'])
      .execute(),
    db.selectFrom('external_domains').select(['id', 'name', 'site_id']).orderBy('id').execute(),
    db
      .selectFrom('volumes')
      .innerJoin('containers', 'containers.id', 'volumes.container_id')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .select([
        'volumes.id',
        'volumes.name',
        'volumes.host_path',
        'volumes.mode',
        'volumes.status',
        'containers.hostname',
      ])
      .where('nodes.site_id', '=', siteId)
      .orderBy('volumes.id')
      .execute(),
  ]);

  const httpServices: HttpServiceEntry[] = http
    .filter((row) => row.ipv4_address)
    .map((row) => ({
      serviceId: row.service_id,
      host: `${row.external_hostname}.${row.domain}`,
      domain: row.domain,
      backendScheme: row.backend_protocol === 'https' ? 'https' : 'http',
      address: row.ipv4_address!,
      port: row.internal_port,
      authRequired: Boolean(row.auth_required),
      authServer: row.auth_server,
    }));
  const streamServices: StreamServiceEntry[] = transport
    .filter((row) => row.ipv4_address)
    .map((row) => ({
      serviceId: row.service_id,
      protocol: row.protocol === 'udp' ? 'udp' : 'tcp',
      externalPort: row.external_port,
      address: row.ipv4_address!,
      port: row.internal_port,
    }));
  const usedDomains = new Set(httpServices.map((service) => service.domain));
  return {
    site: {
      id: site.id,
      name: site.name,
      internalDomain: site.internal_domain,
      dhcpRange: site.dhcp_range,
      subnetMask: site.subnet_mask,
      gateway: site.gateway,
      dnsForwarders: site.dns_forwarders,
      externalIp: site.external_ip,
      nodes: nodes.map((node) => ({ name: node.name, ipv4Address: node.ipv4_address })),
      containers: containers.map((c) => ({
        id: c.id,
        hostname: c.hostname,
        ipv4Address: c.ipv4_address,
        macAddress: c.mac_address,
      })),
      dnsRecords: dns.map((row) => ({
        serviceId: row.service_id,
        dnsName: row.dns_name,
        hostname: row.hostname,
        port: row.internal_port,
      })),
    },
    proxy: {
      httpServices,
      streamServices,
      externalDomains: domains
        .filter((d) => d.site_id === siteId || usedDomains.has(d.name))
        .map((d) => ({ name: d.name })),
      volumes: volumes
        .filter((v) => v.host_path)
        .map((v) => ({
          id: v.id,
          containerHostname: v.hostname,
          name: v.name,
          hostPath: v.host_path!,
          mode: v.mode === 'ro' ? 'ro' : 'rw',
          status: v.status,
        })),
    },
  };
}
