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

export interface ManagerDB {
  users: UsersTable;
  groups: GroupsTable;
  user_groups: UserGroupsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  settings: SettingsTable;
  invite_tokens: InviteTokensTable;
  password_reset_tokens: PasswordResetTokensTable;
}
