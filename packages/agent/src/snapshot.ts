/**
 * The configuration snapshot the manager answers a check-in with (`{data: {site, proxy}}`). The
 * manager builds it (packages/manager) and the agent renders it; this file is their shared contract.
 */
export interface SiteSnapshot {
  id: number;
  name: string;
  internalDomain: string;
  /** `start,end` or `start-end` IPv4 addresses. */
  dhcpRange: string;
  subnetMask: string;
  gateway: string;
  /** Comma-separated upstream DNS servers. */
  dnsForwarders: string;
  externalIp: string | null;
  nodes: { name: string; ipv4Address: string | null }[];
  containers: { id: number; hostname: string; ipv4Address: string | null; macAddress: string | null }[];
  /** DNS SRV records: `<dnsName>.<internalDomain>` → `<hostname>.<internalDomain>:<port>`. */
  dnsRecords: { serviceId: number; dnsName: string; hostname: string; port: number }[];
}

export interface HttpServiceEntry {
  serviceId: number;
  /** Full public host name: `<externalHostname>.<domain>`. */
  host: string;
  domain: string;
  backendScheme: 'http' | 'https';
  address: string;
  port: number;
  authRequired: boolean;
  /** Base URL of the domain's auth proxy (`/oauth2/*` goes there), or null when none is configured. */
  authServer: string | null;
  /** Plain HTTP answers with a redirect to HTTPS, once the host has a certificate (absent: off). */
  redirectHttps?: boolean;
  /** The TLS server sends Strict-Transport-Security (absent: off). */
  hsts?: boolean;
}

export interface StreamServiceEntry {
  serviceId: number;
  protocol: 'tcp' | 'udp';
  externalPort: number;
  address: string;
  port: number;
}

export interface VolumeEntry {
  id: number;
  containerHostname: string;
  name: string;
  hostPath: string;
  mode: 'ro' | 'rw';
  status: 'pending' | 'ready' | 'failed';
  /** The host owner of the folder (the container's user, shifted); absent: left as made (root). */
  uid?: number;
  gid?: number;
}

/** A deleted container's volume folder an administrator had removed: the agent deletes it. */
export interface VolumeRemoval {
  id: number;
  /** `<storage dir>/<site id>/<owner uid>/<hostname>/<volume name>`, as the manager derived it. */
  hostPath: string;
}

export interface ExternalDomainEntry {
  name: string;
  /** The ACME account's contact; the agent obtains certificates for the domain's HTTP hosts when set. */
  acmeEmail?: string | null;
  /** The ACME directory; null: Let's Encrypt. */
  acmeDirectoryUrl?: string | null;
  /**
   * The manager answers DNS-01 for the domain (it holds its DNS provider key): the agent keeps one
   * wildcard certificate, `*.<name>` and `<name>`, for the domain's hosts instead of one per host.
   */
  acmeDnsChallenge?: boolean;
}

export interface ProxySnapshot {
  httpServices: HttpServiceEntry[];
  streamServices: StreamServiceEntry[];
  externalDomains: ExternalDomainEntry[];
  volumes: VolumeEntry[];
  /** Absent from managers that keep no volumes of deleted containers. */
  volumeRemovals?: VolumeRemoval[];
}

export interface Snapshot {
  site: SiteSnapshot;
  proxy: ProxySnapshot;
}

export type ApplyResult = 'success' | 'failure' | 'unknown';

/** At most this much of an apply's error goes back to the manager. */
export const REPORT_MESSAGE_MAX = 1000;

/** What the agent reports per managed service at check-in. */
export interface ServiceReport {
  state: string;
  lastApply: ApplyResult;
  /** Why the last apply failed (a refused value, nginx -t's complaint), when it did. */
  message?: string;
}

/** An ACME certificate's state, as the agent reports it at check-in (ISO times). */
export interface CertificateReport {
  hostname: string;
  notAfter: string | null;
  /** Why the last issuance or renewal failed; null while the certificate is good. */
  lastError: string | null;
  nextAttempt: string | null;
}

export interface CheckinBody {
  siteId: number;
  hostname: string;
  currentTime: number;
  ipv4Address: string | null;
  services: Record<string, ServiceReport>;
  /** Volumes the agent prepared since the last check-in. */
  volumes?: { id: number; status: 'ready' | 'failed'; message?: string | null }[];
  /** Volume folders the agent removed (or could not) since the last check-in. */
  volumeRemovals?: { id: number; status: 'removed' | 'failed'; message?: string | null }[];
  /** Every ACME certificate the agent keeps (absent from agents without ACME). */
  certificates?: CertificateReport[];
}
