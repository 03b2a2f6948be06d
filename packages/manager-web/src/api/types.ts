/** Shapes from the Manager API v1 specification. */

// Those the manager declares itself come from it, so the two cannot drift (types only: the build erases them).
export type {
  AgentToken,
  ApiKey,
  Container,
  ContainerService,
  ContainerStatus,
  EnvVarDefault,
  Group,
  Job,
  JobStatus,
  Node,
  NodeType,
  Notification,
  Settings,
  Site,
  ResourceRequest,
  ResourceType,
} from '@app/manager/api-types';

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

export interface Agent {
  id: number;
  siteId: number;
  siteName: string | null;
  hostname: string;
  ipv4Address: string | null;
  services: Record<
    string,
    { state: string; lastApply: 'success' | 'failure' | 'unknown'; message?: string }
  > | null;
  lastCheckinAt: string | null;
  secondsSinceCheckin: number | null;
}
