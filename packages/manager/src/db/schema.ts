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

export interface ManagerDB extends FleetDB {
  users: UsersTable;
  groups: GroupsTable;
  user_groups: UserGroupsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  settings: SettingsTable;
  invite_tokens: InviteTokensTable;
  password_reset_tokens: PasswordResetTokensTable;
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
  image_storage: string;
  volume_storage: string;
  network_bridge: string;
  nvidia_available: number;
  created_at: string;
  updated_at: string;
}

export interface JobsTable {
  id: Generated<number>;
  command: string;
  status: 'pending' | 'running' | 'success' | 'failure' | 'cancelled';
  created_by: string;
  payload: string;
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
  owner: string;
  node_id: number;
  container_id: string | null;
  status: string;
  template: string;
  ipv4_address: string | null;
  mac_address: string | null;
  creation_job_id: number | null;
  entrypoint: string | null;
  environment_vars: string;
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
