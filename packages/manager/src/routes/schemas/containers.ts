import { Type } from 'typebox';
import { DateTime, Nullable } from '../../common/schemas.ts';
import { ENV_LIMITS } from '../../containers/container-rules.ts';
import { JobStatusSchema } from './fleet.ts';

export const ContainerStatusSchema = Type.Union([
  Type.Literal('running'),
  Type.Literal('offline'),
  Type.Literal('creating'),
  Type.Literal('failed'),
  Type.Literal('missing'),
  Type.Literal('unknown'),
]);

export const ContainerServiceSchema = Type.Object({
  id: Type.Integer(),
  type: Type.Union([Type.Literal('http'), Type.Literal('transport'), Type.Literal('dns')]),
  internalPort: Type.Integer(),
  lastAccessedAt: Nullable(DateTime),
  httpService: Nullable(
    Type.Object({
      id: Type.Integer(),
      externalHostname: Type.String(),
      externalDomainId: Type.Integer(),
      backendProtocol: Type.Union([Type.Literal('http'), Type.Literal('https')]),
      authRequired: Type.Boolean(),
      redirectHttps: Type.Boolean({
        description:
          'Addition to the spec: plain HTTP is redirected to HTTPS once the host has a certificate',
      }),
      hsts: Type.Boolean({
        description: 'Addition to the spec: HTTPS answers carry Strict-Transport-Security',
      }),
      domain: Nullable(Type.String()),
    }),
  ),
  transportService: Nullable(
    Type.Object({
      id: Type.Integer(),
      protocol: Type.Union([Type.Literal('tcp'), Type.Literal('udp')]),
      externalPort: Type.Integer(),
    }),
  ),
  dnsService: Nullable(
    Type.Object({ id: Type.Integer(), recordType: Type.Literal('SRV'), dnsName: Type.String() }),
  ),
});

export const ContainerSchema = Type.Object({
  id: Type.Integer(),
  hostname: Type.String(),
  owner: Type.String(),
  collaborators: Type.Array(Type.String()),
  containerId: Nullable(Type.String()),
  status: ContainerStatusSchema,
  template: Type.String(),
  ipv4Address: Nullable(Type.String()),
  macAddress: Nullable(Type.String()),
  creationJobId: Nullable(Type.Integer()),
  entrypoint: Nullable(Type.String()),
  environmentVars: Type.Record(Type.String(), Type.String()),
  nvidiaRequested: Type.Boolean(),
  restartPending: Type.Boolean({
    description:
      'true while environment or entrypoint changes saved with restart false wait for a restart to take effect',
  }),
  sshPort: Nullable(Type.Integer()),
  sshHost: Nullable(Type.String()),
  httpEntries: Type.Array(Type.Object({ port: Type.Integer(), externalUrl: Nullable(Type.String()) })),
  lastAccessedAt: Nullable(DateTime),
  nodeName: Nullable(Type.String()),
  nodeApiUrl: Nullable(Type.String()),
  services: Type.Array(ContainerServiceSchema),
  createdAt: DateTime,
});

export const EnvVarSchema = Type.Object({ key: Type.String(), value: Type.String() });

/** What a request may set: at most ENV_LIMITS.count variables of bounded length. */
export const EnvVarsInputSchema = Type.Array(
  Type.Object({
    key: Type.String({ maxLength: ENV_LIMITS.keyLength }),
    value: Type.String({ maxLength: ENV_LIMITS.valueLength }),
  }),
  { maxItems: ENV_LIMITS.count },
);

/** ServiceInput / ServiceUpdate entries are checked by the domain (400 invalid_service names the entry). */
const ServiceEntries = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'arbitrary keys to ServiceInput {type, internalPort, externalHostname, externalDomainId, dnsName, authRequired} (plus redirectHttps and hsts for http/https, an addition to the spec)',
});

const OptionalText = Type.Optional(Nullable(Type.String()));

export const CreateContainerSchema = Type.Object({
  hostname: Type.String(),
  template: Type.String(),
  customTemplate: OptionalText,
  entrypoint: OptionalText,
  nvidiaRequested: Type.Optional(Nullable(Type.Boolean())),
  username: OptionalText,
  collaborators: Type.Optional(Nullable(Type.Array(Type.String()))),
  environmentVars: Type.Optional(Nullable(EnvVarsInputSchema)),
  services: Type.Optional(Nullable(ServiceEntries)),
});

export const UpdateContainerSchema = Type.Object({
  username: OptionalText,
  services: Type.Optional(Nullable(ServiceEntries)),
  environmentVars: Type.Optional(Nullable(EnvVarsInputSchema)),
  entrypoint: OptionalText,
  restart: Type.Optional(Nullable(Type.Boolean())),
});

export const ResourceTypeSchema = Type.Union([
  Type.Literal('memory'),
  Type.Literal('swap'),
  Type.Literal('cpus'),
  Type.Literal('rootfs'),
]);

export const ResourceRequestSchema = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  hostname: Type.String(),
  username: Type.String(),
  resourceType: ResourceTypeSchema,
  value: Type.Integer(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('denied')]),
  comment: Nullable(Type.String()),
  adminComment: Nullable(Type.String()),
  reviewedBy: Nullable(Type.String()),
  reviewedAt: Nullable(DateTime),
  createdAt: DateTime,
  updatedAt: DateTime,
  site: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
});

export const ImageMetadataSchema = Type.Object({
  ports: Type.Array(
    Type.Object({ port: Type.Integer(), protocol: Type.Union([Type.Literal('tcp'), Type.Literal('udp')]) }),
  ),
  httpServices: Type.Array(
    Type.Object({ port: Type.Integer(), hostnameSuffix: Type.String(), requireAuth: Type.Boolean() }),
  ),
  entrypoint: Nullable(Type.String()),
  env: Type.Array(EnvVarSchema),
});

export const ContainerJobSchema = Type.Object({
  id: Type.Integer(),
  command: Type.String({ description: 'container.create, container.apply or container.delete' }),
  status: JobStatusSchema,
  createdAt: DateTime,
  updatedAt: DateTime,
  finishedAt: Nullable(DateTime),
  lastOutput: Nullable(
    Type.Array(Type.String(), {
      description:
        'the last output lines of a failed job, for its creator and administrators; null otherwise',
    }),
  ),
});
