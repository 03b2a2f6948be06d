/**
 * Shapes of the manager's answers, named after the operations that return them in its OpenAPI
 * document (the generated `openapi.ts`), so they change with the server; and the few the UI adds.
 */

import type { ResponseOf } from './client.ts';

type Item<T> = T extends readonly (infer I)[] ? I : never;

export type Session = ResponseOf<'get', '/session'>;
export type Settings = ResponseOf<'get', '/settings'>;
export type Site = ResponseOf<'get', '/sites/{id}'>;
export type Node = ResponseOf<'get', '/sites/{siteId}/nodes/{id}'>;
export type NodeType = Node['nodeType'];
export type NodeStats = ResponseOf<'get', '/sites/{siteId}/nodes/{id}/stats'>;
export type Usage = NonNullable<NodeStats['memory']>;
export type Storage = Item<ResponseOf<'get', '/sites/{siteId}/nodes/{id}/storages'>>;
export type Container = ResponseOf<'get', '/sites/{siteId}/containers/{id}'>;
export type ContainerService = Container['services'][number];
export type NewContainerForm = ResponseOf<'get', '/sites/{siteId}/containers/new'>;
export type Job = ResponseOf<'get', '/jobs/{id}'>;
export type JobStatus = Job['status'];
export type User = Item<ResponseOf<'get', '/users'>>;
export type UserStatus = User['status'];
export type Group = Item<ResponseOf<'get', '/groups'>>;
export type Agent = Item<ResponseOf<'get', '/agents'>>;
export type ResourceRequest = Item<ResponseOf<'get', '/resource-requests'>>;
export type ResourceType = ResourceRequest['resourceType'];
export type Notification = Item<ResponseOf<'get', '/notifications'>>;
export type ExternalDomain = ResponseOf<'get', '/external-domains/{id}'>;
export type AlertRule = ResponseOf<'get', '/alert-rules/{id}'>;
export type DomainCertificate = ResponseOf<'get', '/external-domains/{id}/certificates'>[number];

export type ServiceType = 'http' | 'https' | 'tcp' | 'udp' | 'srv';

export interface ServiceInput {
  type: ServiceType;
  internalPort: number;
  externalHostname?: string;
  externalDomainId?: number;
  dnsName?: string;
  authRequired?: boolean;
  redirectHttps?: boolean;
  hsts?: boolean;
}

export interface ServiceUpdate extends ServiceInput {
  id?: number;
  deleted?: boolean;
}

export interface EnvVar {
  key: string;
  value: string;
}
