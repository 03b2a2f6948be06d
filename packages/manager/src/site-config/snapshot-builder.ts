import type { HttpServiceEntry, Snapshot, StreamServiceEntry } from '@app/agent/snapshot';
import type { SnapshotRepository } from './snapshot-repository.ts';

/** Builds one site's snapshot from its rows (read in a fixed number of queries, whatever its size). */
export async function buildSnapshot(repo: SnapshotRepository, siteId: number): Promise<Snapshot | undefined> {
  const rows = await repo.ofSite(siteId);
  if (!rows) return undefined;
  const { site, nodes, containers, http, transport, dns, domains, volumes, removals } = rows;
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
      redirectHttps: Boolean(row.redirect_https),
      hsts: Boolean(row.hsts),
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
        .map((d) => ({
          name: d.name,
          acmeEmail: d.acme_email,
          acmeDirectoryUrl: d.acme_directory_url,
          // The manager sets the domain's `_acme-challenge` records for the site it belongs to.
          acmeDnsChallenge: Boolean(d.acme_email && d.has_dns_key) && d.site_id === siteId,
        })),
      volumes: volumes
        .filter((v) => v.host_path)
        .map((v) => ({
          id: v.id,
          containerHostname: v.hostname,
          name: v.name,
          hostPath: v.host_path!,
          mode: v.mode === 'ro' ? 'ro' : 'rw',
          status: v.status,
          ...(v.host_uid !== null && v.host_gid !== null ? { uid: v.host_uid, gid: v.host_gid } : {}),
        })),
      volumeRemovals: removals.map((row) => ({ id: row.id, hostPath: row.host_path })),
    },
  };
}
