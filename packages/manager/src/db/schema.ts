import type { Generated } from 'kysely';

/** Row types of the manager's tables, as Kysely sees them. Times are ISO strings unless named `_ms`. */
export interface UsersTable {
  uid_number: number;
  uid: string;
  given_name: string;
  sn: string;
  cn: string;
  mail: string;
  password_hash: string | null;
  status: 'pending' | 'active' | 'suspended';
  created_at: string;
  updated_at: string;
}

export interface GroupsTable {
  gid_number: number;
  cn: string;
  is_admin: number;
  created_at: string;
  updated_at: string;
}

export interface UserGroupsTable {
  uid_number: number;
  gid_number: number;
}

export interface SessionsTable {
  id_hash: string;
  uid_number: number | null;
  csrf_token: string;
  data: string;
  expires_at: number;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  uid_number: number;
  key_prefix: string;
  key_hash: string;
  description: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface InviteTokensTable {
  id: string;
  email: string;
  token_hash: string;
  expires_at: number;
  used: number;
  created_at: string;
}

export interface PasswordResetTokensTable {
  id: string;
  uid_number: number;
  token_hash: string;
  expires_at: number;
  used: number;
  created_at: string;
}

/** Persisted high-water marks (migration 007): `uid_number` is the last uidNumber handed out. */
export interface IdCountersTable {
  name: string;
  last_value: number;
}

/** The name each deleted user had, for the references that outlive them (migration 007). */
export interface DeletedUsersTable {
  uid_number: number;
  uid: string;
  deleted_at: string;
}

export interface ManagerDB extends FleetDB, ContainersDB, SiteAgentsDB, MetricsDB {
  users: UsersTable;
  id_counters: IdCountersTable;
  deleted_users: DeletedUsersTable;
  quota_counters: QuotaCountersTable;
  groups: GroupsTable;
  user_groups: UserGroupsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  settings: SettingsTable;
  invite_tokens: InviteTokensTable;
  password_reset_tokens: PasswordResetTokensTable;
  audit_events: AuditEventsTable;
}

/** One audited request or event (migration 015); no foreign keys: entries outlive what they name. */
export interface AuditEventsTable {
  id: Generated<number>;
  occurred_at: string;
  request_id: string | null;
  actor_uid_number: number | null;
  /** The actor's username when the entry was written. */
  actor_uid: string | null;
  actor_api_key_id: string | null;
  source_address: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  site_id: number | null;
  container_id: number | null;
  outcome: 'success' | 'failure';
  http_status: number | null;
  error_code: string | null;
  /** JSON object, secrets redacted. */
  details: string | null;
}

export interface SitesTable {
  id: Generated<number>;
  name: string;
  internal_domain: string;
  dhcp_range: string;
  subnet_mask: string;
  gateway: string;
  dns_forwarders: string;
  external_ip: string | null;
  created_at: string;
  updated_at: string;
}

export interface NodesTable {
  id: Generated<number>;
  name: string;
  node_type: 'hypervisor' | 'dummy' | 'engine';
  site_id: number;
  ipv4_address: string | null;
  api_url: string | null;
  token_id: string | null;
  secret_sealed: string | null;
  tls_verify: number | null;
  tls_fingerprint: string | null;
  image_storage: string;
  volume_storage: string;
  network_bridge: string;
  nvidia_available: number;
  /** Added to a container's uid/gid for the host's; NULL: the node type's default. */
  volume_id_shift: number | null;
  created_at: string;
  updated_at: string;
}

export interface JobsTable {
  id: Generated<number>;
  command: string;
  status: 'pending' | 'running' | 'success' | 'failure' | 'cancelled';
  created_by_uid_number: number;
  payload: string;
  container_id: number | null;
  result: string | null;
  /** The lane it was queued in (JobsRepository.queueInLane); NULL: the general lane. */
  lane: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  attempts: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface JobStatusesTable {
  id: Generated<number>;
  job_id: number;
  output: string | null;
  created_at: string;
  updated_at: string;
}

export interface ContainersTable {
  id: Generated<number>;
  hostname: string;
  owner_uid_number: number;
  node_id: number;
  container_id: string | null;
  status: 'pending' | 'creating' | 'running' | 'failed';
  template: string;
  ipv4_address: string | null;
  mac_address: string | null;
  creation_job_id: number | null;
  entrypoint: string | null;
  environment_vars: string;
  /** JSON object: the image's own environment, which the user's variables go over (migration 005). */
  image_environment: string | null;
  /** What a create in progress named on the node before making it (migration 010). */
  made_instance: string | null;
  /** JSON object: what the instance runs with while saved changes wait for a restart (migration 014). */
  applied_environment: string | null;
  nvidia_requested: number;
  created_at: string;
  updated_at: string;
}

export interface DummyInstancesTable {
  node_id: number;
  vmid: number;
  hostname: string;
  state: 'running' | 'stopped';
  config: string;
  created_at: string;
}

export interface FleetDB {
  sites: SitesTable;
  nodes: NodesTable;
  jobs: JobsTable;
  job_statuses: JobStatusesTable;
  containers: ContainersTable;
  dummy_instances: DummyInstancesTable;
}

export interface ExternalDomainsTable {
  id: Generated<number>;
  name: string;
  acme_email: string | null;
  acme_directory_url: string | null;
  dns_provider_api_email: string | null;
  dns_provider_api_key_sealed: string | null;
  site_id: number | null;
  auth_server: string | null;
  created_at: string;
  updated_at: string;
}

export interface ContainerCollaboratorsTable {
  container_id: number;
  uid_number: number;
  created_at: string;
}

export interface ServicesTable {
  id: Generated<number>;
  container_id: number;
  type: 'http' | 'transport' | 'dns';
  internal_port: number;
  last_accessed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface HttpServicesTable {
  id: Generated<number>;
  service_id: number;
  external_hostname: string;
  external_domain_id: number;
  backend_protocol: 'http' | 'https';
  auth_required: number;
  redirect_https: Generated<number>;
  hsts: Generated<number>;
}

export interface TransportServicesTable {
  id: Generated<number>;
  service_id: number;
  protocol: 'tcp' | 'udp';
  external_port: number;
  use_tls: number;
}

export interface DnsServicesTable {
  id: Generated<number>;
  service_id: number;
  record_type: 'SRV';
  dns_name: string;
}

export interface ResourceRequestsTable {
  id: Generated<number>;
  site_id: number;
  hostname: string;
  /** The requester. */
  uid_number: number;
  resource_type: 'memory' | 'swap' | 'cpus' | 'rootfs';
  value: number;
  status: 'pending' | 'approved' | 'denied';
  comment: string | null;
  admin_comment: string | null;
  /** 0 for `system` (automatic approvals). */
  reviewed_by_uid_number: number | null;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Containers' services, collaborators, external domains, resource requests. */
export interface ContainersDB {
  external_domains: ExternalDomainsTable;
  container_collaborators: ContainerCollaboratorsTable;
  services: ServicesTable;
  http_services: HttpServicesTable;
  transport_services: TransportServicesTable;
  dns_services: DnsServicesTable;
  resource_requests: ResourceRequestsTable;
}

export interface AgentsTable {
  id: Generated<number>;
  site_id: number;
  hostname: string;
  ipv4_address: string | null;
  /** JSON: name → {state, lastApply}. */
  services: string | null;
  last_checkin_at: string | null;
}

export interface NotificationsTable {
  id: Generated<number>;
  source: string;
  severity: 'info' | 'warning' | 'critical';
  node: string | null;
  node_ctid: string | null;
  owner_uid_number: number | null;
  action: string | null;
  message: string;
  /** JSON object or null. */
  evidence: string | null;
  event_at: string | null;
  acknowledged_at: string | null;
  acknowledged_by_uid_number: number | null;
  created_at: string;
  updated_at: string;
}

export interface VolumesTable {
  id: Generated<number>;
  container_id: number;
  name: string;
  host_path: string | null;
  mount_path: string;
  mode: 'ro' | 'rw';
  scope: string;
  builtin: number;
  status: 'pending' | 'ready' | 'failed';
  status_message: string | null;
  applied_at: string | null;
  /** The host owner the site agent gives the folder; NULL: left as the agent made it. */
  host_uid: number | null;
  host_gid: number | null;
}

/** A deleted container's volume folder, kept until an administrator has it removed. */
export interface KeptVolumesTable {
  id: Generated<number>;
  site_id: number;
  hostname: string;
  name: string;
  host_path: string;
  mount_path: string;
  kept_at: string;
  /** removing: the site agent deletes the folder at its next check-in. */
  status: 'kept' | 'removing' | 'remove_failed';
  status_message: string | null;
}

export interface AgentTokensTable {
  id: string;
  site_id: number;
  token_prefix: string;
  token_hash: string;
  description: string | null;
  last_used_at: string | null;
  created_at: string;
}

/** An ACME certificate as its site's agent reports it (ISO times). */
export interface CertificatesTable {
  site_id: number;
  hostname: string;
  not_after: string | null;
  last_error: string | null;
  next_attempt: string | null;
  updated_at: string;
}

export interface SiteAgentsDB {
  agents: AgentsTable;
  agent_tokens: AgentTokensTable;
  certificates: CertificatesTable;
  notifications: NotificationsTable;
  volumes: VolumesTable;
  kept_volumes: KeptVolumesTable;
}

/** Hits on one registration or password-reset quota (per address or per account) in its window. */
export interface QuotaCountersTable {
  /** SHA-256 of `<action>:<address|account>:<value>`: no address or e-mail is stored in the clear. */
  key_hash: string;
  window_start: number;
  hits: number;
}

/** One sample's figures; null where the node does not report the figure (migration 017). */
export interface MetricFigures {
  cpu_cores: number | null;
  cpu_pct: number | null;
  mem_bytes: number | null;
  mem_pct: number | null;
  disk_bytes: number | null;
  disk_pct: number | null;
  net_in_bps: number | null;
  net_out_bps: number | null;
}

export type MetricSubject = 'node' | 'container';

export interface MetricSamplesTable extends MetricFigures {
  subject_type: MetricSubject;
  subject_id: number;
  /** 60: a 1-minute sample; 3600: the average of an hour's samples, at the hour's start. */
  resolution_s: number;
  at_ms: number;
}

export interface MetricLatestTable extends MetricFigures {
  subject_type: MetricSubject;
  subject_id: number;
  at_ms: number;
}

export interface PeriodicLeasesTable {
  name: string;
  owner: string;
  expires_at: number;
}

export type AlertMetric = 'cpu_pct' | 'mem_pct' | 'disk_pct' | 'net_in_bps' | 'net_out_bps';
export type AlertScope = 'containers' | 'nodes' | 'site' | 'node' | 'container';

/** Migration 019. */
export interface AlertRulesTable {
  id: Generated<number>;
  name: string;
  metric: AlertMetric;
  comparison: 'above' | 'below';
  threshold: number;
  duration_s: number;
  scope_type: AlertScope;
  /** The site, node or container of those scopes; null for all containers or all nodes. */
  scope_id: number | null;
  /** 1: e-mail the administrators too (when SMTP is set up). */
  email: number;
  webhook_url: string | null;
  webhook_secret_sealed: string | null;
  created_at: string;
  updated_at: string;
}

export interface AlertStatesTable {
  rule_id: number;
  subject_type: MetricSubject;
  subject_id: number;
  pending_since: number;
  firing_since: number | null;
}

export interface MetricsDB {
  metric_samples: MetricSamplesTable;
  metric_latest: MetricLatestTable;
  periodic_leases: PeriodicLeasesTable;
  alert_rules: AlertRulesTable;
  alert_states: AlertStatesTable;
}
