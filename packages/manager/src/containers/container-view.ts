import type { ContainerService } from '../services/services-repository.ts';
import type { ContainerRecord } from './containers-repository.ts';
import type { ContainerStatus } from './container-status.ts';

/** The Container resource of the spec. */
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
  /** Saved environment or entrypoint changes wait for a restart. */
  restartPending: boolean;
  sshPort: number | null;
  sshHost: string | null;
  httpEntries: Array<{ port: number; externalUrl: string | null }>;
  lastAccessedAt: string | null;
  nodeName: string | null;
  nodeApiUrl: string | null;
  services: ContainerService[];
  createdAt: string;
}

export interface SiteAddressing {
  /** The site's own first external domain, else its external IP (see README: SSH host). */
  sshHost: string | null;
}

export function toContainer(
  record: ContainerRecord,
  extra: {
    status: ContainerStatus;
    services: ContainerService[];
    collaborators: string[];
    site: SiteAddressing;
    /** The node's API address is for administrators. */
    showNodeAddress: boolean;
  },
): Container {
  const { services } = extra;
  const ssh = services.find(
    (service) => service.transportService?.protocol === 'tcp' && service.internalPort === 22,
  );
  let lastAccessedAt: string | null = null;
  for (const service of services) {
    if (service.lastAccessedAt && (!lastAccessedAt || service.lastAccessedAt > lastAccessedAt)) {
      lastAccessedAt = service.lastAccessedAt;
    }
  }
  return {
    id: record.id,
    hostname: record.hostname,
    owner: record.owner,
    collaborators: extra.collaborators,
    containerId: record.containerId,
    status: extra.status,
    template: record.template,
    ipv4Address: record.ipv4Address,
    macAddress: record.macAddress,
    creationJobId: record.creationJobId,
    entrypoint: record.entrypoint,
    environmentVars: record.environmentVars,
    nvidiaRequested: record.nvidiaRequested,
    restartPending: record.appliedEnvironment !== null,
    sshPort: ssh?.transportService?.externalPort ?? null,
    sshHost: ssh ? extra.site.sshHost : null,
    httpEntries: services.flatMap((service) =>
      service.httpService
        ? [
            {
              port: service.internalPort,
              externalUrl: service.httpService.domain
                ? `https://${service.httpService.externalHostname}.${service.httpService.domain}`
                : null,
            },
          ]
        : [],
    ),
    lastAccessedAt,
    nodeName: record.nodeName,
    nodeApiUrl: extra.showNodeAddress ? record.nodeApiUrl : null,
    services,
    createdAt: record.createdAt,
  };
}
