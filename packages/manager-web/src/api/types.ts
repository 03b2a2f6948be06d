/** Shapes from the Manager API v1 specification. */

export interface Health {
  status: string;
  isDev: boolean;
  oidcEnabled: boolean;
  banner: string | null;
}

export interface Session {
  user: string;
  isAdmin: boolean;
}

export interface Site {
  id: number;
  name: string;
  internalDomain: string;
  dhcpRange: string;
  subnetMask: string;
  gateway: string;
  dnsForwarders: string;
  externalIp: string | null;
  nodeCount?: number;
}

export type ContainerStatus = 'running' | 'offline' | 'creating' | 'failed' | 'missing' | 'unknown';

export interface HttpService {
  id: number;
  externalHostname: string;
  externalDomainId: number;
  backendProtocol: 'http' | 'https';
  authRequired: boolean;
  domain: string | null;
}

export interface ContainerService {
  id: number;
  type: 'http' | 'transport' | 'dns';
  internalPort: number;
  lastAccessedAt: string | null;
  httpService: HttpService | null;
  transportService: { id: number; protocol: 'tcp' | 'udp'; externalPort: number } | null;
  dnsService: { id: number; recordType: 'SRV'; dnsName: string } | null;
}

export interface Container {
  id: number;
  hostname: string;
  owner: string;
  collaborators: string[];
  containerId: string | null;
  status: ContainerStatus;
  template: string;
  ipv4Address: string | null;
  macAddress: string | null;
  creationJobId: number | null;
  entrypoint: string | null;
  environmentVars: Record<string, string>;
  nvidiaRequested: boolean;
  sshPort: number | null;
  sshHost: string | null;
  httpEntries: Array<{ port: number; externalUrl: string | null }>;
  lastAccessedAt: string | null;
  nodeName: string | null;
  nodeApiUrl: string | null;
  services: ContainerService[];
  createdAt: string;
}

export type ServiceType = 'http' | 'https' | 'tcp' | 'udp' | 'srv';

export interface ServiceInput {
  type: ServiceType;
  internalPort: number;
  externalHostname?: string;
  externalDomainId?: number;
  dnsName?: string;
  authRequired?: boolean;
}

export interface ServiceUpdate extends ServiceInput {
  id?: number;
  deleted?: boolean;
}

export interface EnvVar {
  key: string;
  value: string;
}

export interface NewContainerForm {
  siteId: number;
  externalDomains: Array<{ id: number; name: string; siteId: number | null }>;
  nvidiaAvailable: boolean;
  defaultContainerEnvVars?: Array<{ key: string; value: string; description?: string }>;
}

export interface ImageMetadata {
  ports: Array<{ port: number; protocol: string }>;
  httpServices: Array<{ port: number; hostnameSuffix?: string | null; requireAuth?: boolean }>;
  entrypoint: string | null;
  env: Record<string, string> | Array<string | EnvVar>;
}

export type NodeType = 'hypervisor' | 'dummy' | 'engine';

export interface Node {
  id: number;
  name: string;
  nodeType: NodeType;
  siteId: number;
  ipv4Address: string | null;
  apiUrl: string | null;
  tokenId: string | null;
  tlsVerify: boolean | null;
  imageStorage: string;
  volumeStorage: string;
  networkBridge: string;
  nvidiaAvailable: boolean;
  hasSecret: boolean;
}

export interface Usage {
  total: number;
  used: number;
  available?: number;
}

/** Only `available` is named by the spec; the rest is read when present. */
export interface NodeStats {
  available: boolean;
  reason?: string;
  cpu?: { usage?: number; cores?: number };
  memory?: Usage;
  swap?: Usage;
  rootfs?: Usage;
  uptime?: number;
  loadavg?: number[];
  containers?: { total: number; running: number };
  datastores?: Array<{ name: string; total: number; used: number; available?: number }>;
}

export interface Storage {
  name: string;
  total: number;
  available: number;
}

export type JobStatus = 'pending' | 'running' | 'success' | 'failure' | 'cancelled';

export interface Job {
  id: number;
  command: string;
  status: JobStatus;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface ApiKey {
  id: string;
  keyPrefix: string;
  description: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface GroupRef {
  gidNumber: number;
  cn: string;
  isAdmin: boolean;
}

export type UserStatus = 'pending' | 'active' | 'suspended';

export interface User {
  uidNumber: number;
  uid: string;
  givenName: string;
  sn: string;
  cn: string;
  mail: string;
  status: UserStatus;
  groups?: GroupRef[];
  isAdmin: boolean;
}

export interface Group extends GroupRef {
  userCount?: number;
}

export interface ExternalDomain {
  id: number;
  name: string;
  acmeEmail: string | null;
  acmeDirectoryUrl: string | null;
  dnsProviderApiEmail: string | null;
  siteId: number | null;
  site: { id: number; name: string } | null;
  authServer: string | null;
  hasDnsProviderApiKey: boolean;
}

export interface EnvVarDefault {
  key: string;
  value: string;
  description: string;
}

export interface Settings {
  smtpUrl: string;
  smtpNoreplyAddress: string;
  defaultContainerEnvVars: EnvVarDefault[];
  inventoryUrl: string;
  inventoryToken: string;
  bannerMessage: string;
}

export type ResourceType = 'memory' | 'swap' | 'cpus' | 'rootfs';

export interface ResourceRequest {
  id: number;
  siteId: number;
  hostname: string;
  username: string;
  resourceType: ResourceType;
  value: number;
  status: 'pending' | 'approved' | 'denied' | 'closed';
  comment: string | null;
  adminComment: string | null;
  reviewedBy: string | null;
  reviewedAt: string | null;
  createdAt: string;
  updatedAt: string;
  site: { id: number; name: string } | null;
}

export interface Notification {
  id: number;
  source: string;
  severity: 'info' | 'warning' | 'critical';
  node: string | null;
  ctid: string | null;
  owner: string | null;
  action: string | null;
  message: string;
  evidence: Record<string, unknown> | null;
  eventAt: string | null;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Agent {
  id: number;
  siteId: number;
  siteName: string | null;
  hostname: string;
  ipv4Address: string | null;
  services: Record<string, { state: string; lastApply: 'success' | 'failure' | 'unknown' }> | null;
  lastCheckinAt: string | null;
  secondsSinceCheckin: number | null;
}
