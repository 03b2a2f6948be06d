import { Type } from 'typebox';
import { DateTime, Nullable } from '../../common/schemas.ts';
import { ENV_LIMITS } from '../../containers/container-rules.ts';

export const UserStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('active'),
  Type.Literal('suspended'),
]);
/** Accepted on input: the original system's `disabled` means `suspended`. */
export const UserStatusInput = Type.Union([UserStatusSchema, Type.Literal('disabled')]);

export const GroupRef = Type.Object({
  gidNumber: Type.Integer(),
  cn: Type.String(),
  isAdmin: Type.Boolean(),
});

export const UserSchema = Type.Object({
  uidNumber: Type.Integer(),
  uid: Type.String(),
  givenName: Type.String(),
  sn: Type.String(),
  cn: Type.String(),
  mail: Type.String(),
  status: UserStatusSchema,
  groups: Type.Array(GroupRef),
  isAdmin: Type.Boolean(),
});

export const GroupSchema = Type.Object({
  gidNumber: Type.Integer(),
  cn: Type.String(),
  isAdmin: Type.Boolean(),
  userCount: Type.Optional(Type.Integer()),
});

export const ApiKeySchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  keyPrefix: Type.String(),
  description: Nullable(Type.String()),
  lastUsedAt: Nullable(DateTime),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const EnvVarDefaultSchema = Type.Object({
  key: Type.String({ maxLength: ENV_LIMITS.keyLength }),
  value: Type.String({ maxLength: ENV_LIMITS.valueLength }),
  description: Type.String({ default: '', maxLength: 1024 }),
});

export const SettingsSchema = Type.Object({
  smtpUrl: Type.String(),
  smtpNoreplyAddress: Type.String(),
  defaultContainerEnvVars: Type.Array(EnvVarDefaultSchema),
  inventoryUrl: Type.String(),
  inventoryToken: Type.String(),
  bannerMessage: Type.String(),
  ssoAllowedDomains: Type.Array(Type.String(), {
    description: 'e-mail domains whose new single sign-on users are active at once',
  }),
  ssoAllowedGroups: Type.Array(Type.String(), {
    description: 'groups (in the groups claim) whose new single sign-on users are active at once',
  }),
  ssoGroupsClaim: Type.String({ description: 'claim that lists the groups (default groups)' }),
  registryAllowlist: Type.Array(Type.String()),
  auditRetentionDays: Type.Integer({ description: 'days the audit log keeps its entries' }),
});
