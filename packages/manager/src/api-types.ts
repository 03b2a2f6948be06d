// Response shapes the manager declares itself, for the web client (packages/manager-web) to import as
// types only: its build erases them, so no server code reaches the browser.
export type { ApiKey } from './auth/api-keys.ts';
export type { AgentToken } from './site-config/agent-tokens.ts';
export type { Container } from './containers/container-view.ts';
export type { ContainerStatus } from './containers/container-status.ts';
export type { Job, JobStatus } from './jobs/types.ts';
export type { Node } from './nodes/nodes-service.ts';
export type { NodeType } from './nodes/node-rules.ts';
export type { Notification } from './notifications/notifications-service.ts';
export type { ContainerService } from './services/services-repository.ts';
export type { EnvVarDefault, Settings } from './settings/settings-service.ts';
export type { ResourceRequest, ResourceType } from './resource-requests/resource-requests-repository.ts';
export type { Site } from './sites/sites-service.ts';
export type { Group } from './users/groups-service.ts';
