import { Type } from 'typebox';
import { DateTime, Nullable } from '../../common/schemas.ts';

const SiteFields = {
  name: Type.String(),
  internalDomain: Type.String(),
  dhcpRange: Type.String({ description: 'two IPv4 addresses as "start,end" or "start-end"' }),
  subnetMask: Type.String(),
  gateway: Type.String(),
  dnsForwarders: Type.String({ description: 'IP addresses separated by commas' }),
};

export const SiteInputSchema = Type.Object({
  ...SiteFields,
  externalIp: Type.Optional(Nullable(Type.String())),
});

export const SiteSchema = Type.Object({
  id: Type.Integer(),
  ...SiteFields,
  externalIp: Nullable(Type.String()),
  nodeCount: Type.Optional(Type.Integer({ description: 'present on list and show answers' })),
});

export const NodeTypeSchema = Type.Union([
  Type.Literal('hypervisor'),
  Type.Literal('dummy'),
  Type.Literal('engine'),
]);

const VOLUME_ID_SHIFT =
  "added to a container's uid/gid to get the host owner of its volume folders; null: the node type's default " +
  '(hypervisor 100000, unprivileged containers; engine 0)';

const OptionalText = Type.Optional(Nullable(Type.String()));

export const NodeInputSchema = Type.Object({
  name: Type.String({ minLength: 1 }),
  nodeType: Type.Optional(
    Type.String({ description: 'hypervisor (default), dummy or engine; proxmox and docker are accepted' }),
  ),
  ipv4Address: OptionalText,
  apiUrl: OptionalText,
  tokenId: OptionalText,
  secret: Type.Optional(
    Nullable(Type.String({ description: 'write-only; blank or omitted on update keeps the stored one' })),
  ),
  tlsVerify: Type.Optional(Nullable(Type.Boolean())),
  tlsFingerprint: Type.Optional(
    Nullable(
      Type.String({
        description:
          "SHA-256 fingerprint of the node's certificate (AB:CD:…): when set, the connection is accepted iff it matches, whatever the CA",
      }),
    ),
  ),
  imageStorage: OptionalText,
  volumeStorage: OptionalText,
  networkBridge: OptionalText,
  nvidiaAvailable: Type.Optional(Nullable(Type.Boolean())),
  volumeIdShift: Type.Optional(Nullable(Type.Integer({ description: VOLUME_ID_SHIFT }))),
});

export const NodeSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  nodeType: NodeTypeSchema,
  siteId: Type.Integer(),
  ipv4Address: Nullable(Type.String()),
  apiUrl: Nullable(Type.String()),
  tokenId: Nullable(Type.String()),
  tlsVerify: Nullable(Type.Boolean({ description: 'null (unset) means verified' })),
  tlsFingerprint: Nullable(Type.String()),
  imageStorage: Type.String(),
  volumeStorage: Type.String(),
  networkBridge: Type.String(),
  nvidiaAvailable: Type.Boolean(),
  volumeIdShift: Nullable(Type.Integer({ description: VOLUME_ID_SHIFT })),
  hasSecret: Type.Boolean(),
});

export const StorageSchema = Type.Object({
  name: Type.String(),
  total: Type.Integer(),
  available: Type.Integer(),
});

const Usage = Type.Object({ total: Type.Number(), used: Type.Optional(Type.Number()) });

export const NodeStatsSchema = Type.Object({
  available: Type.Boolean(),
  reason: Type.Optional(Type.String()),
  cpu: Type.Optional(
    Type.Object({
      usage: Type.Optional(Type.Number({ description: 'fraction 0–1' })),
      cores: Type.Integer(),
    }),
  ),
  memory: Type.Optional(Usage),
  swap: Type.Optional(Usage),
  rootfs: Type.Optional(Usage),
  uptime: Type.Optional(Type.Integer({ description: 'seconds' })),
  loadavg: Type.Optional(Type.Array(Type.Number())),
  containers: Type.Optional(Type.Object({ total: Type.Integer(), running: Type.Integer() })),
  datastores: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String(),
        total: Type.Number(),
        used: Type.Number(),
        available: Type.Number(),
      }),
    ),
  ),
});

export const ImportInputSchema = Type.Object({
  apiUrl: Type.String({ format: 'uri' }),
  username: Type.String({ minLength: 1 }),
  password: Type.String({ minLength: 1 }),
  tlsVerify: Type.Optional(Type.Boolean()),
  tlsFingerprint: Type.Optional(
    Type.String({ description: "SHA-256 fingerprint of the cluster's certificate" }),
  ),
});

export const JobStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('running'),
  Type.Literal('success'),
  Type.Literal('failure'),
  Type.Literal('cancelled'),
]);

export const JobSchema = Type.Object({
  id: Type.Integer(),
  command: Type.String(),
  status: JobStatusSchema,
  createdBy: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
  result: Type.Optional(
    Type.Object(
      { exitCode: Type.Integer() },
      { description: 'container.exec, once the command has ended: its exit code' },
    ),
  ),
});

export const JobStatusRowSchema = Type.Object({
  id: Type.Integer(),
  jobId: Type.Integer(),
  output: Nullable(Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime,
});
