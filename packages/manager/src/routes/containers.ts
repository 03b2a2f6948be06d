import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../common/api.ts';
import { Data, Nullable, responses, RowId, SiteParams } from '../common/schemas.ts';
import { principalOf, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { parsePlatform } from '../images/platform.ts';
import type { ServiceInput } from '../services/service-input.ts';
import {
  ContainerJobSchema,
  ContainerSchema,
  ContainerStatusSchema,
  CreateContainerSchema,
  ImageMetadataSchema,
  UpdateContainerSchema,
} from './schemas/containers.ts';
import { errorsOf } from '../errors/catalogue.ts';

const ContainerParams = Type.Object({ siteId: RowId(), id: RowId() });
const CollaboratorParams = Type.Object({
  siteId: RowId(),
  id: RowId(),
  username: Type.String({ minLength: 1, maxLength: 64 }),
});
const ListQuery = Type.Object({
  hostname: Type.Optional(Type.String()),
  nodeId: Type.Optional(Type.Union([RowId(), Type.Literal('')])),
  user: Type.Optional(Type.Array(Type.String(), { description: 'bracket notation: user[0]=…&user[1]=…' })),
});
const CollaboratorList = Type.Object({ collaborators: Type.Array(Type.String()) });

/**
 * `user[0]=a&user[1]=b` (and `user[]=a`) into `user: ['a', 'b']` before validation; the default
 * querystring parser keeps bracketed keys as they are.
 */
async function bracketUsers(request: FastifyRequest) {
  const query = request.query as Record<string, unknown>;
  const indexed: Array<[number, string]> = [];
  for (const key of Object.keys(query)) {
    const match = /^user\[(\d*)\]$/.exec(key);
    if (!match) continue;
    const values = ([] as unknown[]).concat(query[key]);
    for (const value of values)
      indexed.push([match[1] ? Number(match[1]) : Number.MAX_SAFE_INTEGER, String(value)]);
    delete query[key];
  }
  if (!indexed.length) return;
  const existing = query.user === undefined ? [] : ([] as unknown[]).concat(query.user).map(String);
  query.user = [...existing, ...indexed.sort((a, b) => a[0] - b[0]).map(([, value]) => value)];
}

/** Nullable optional fields: null means "not given". */
const given = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

export async function containerRoutes(api: Api, services: Services) {
  const { containers, containerDeletes, containerUpdates, containerHistory, collaborators, imageMetadata } =
    services;
  const tags = ['Containers'];
  api.addHook('onRequest', requireUser);

  api.get(
    '/sites/:siteId/containers',
    {
      config: { errors: errorsOf('site_not_found') },
      preValidation: bracketUsers,
      schema: {
        tags,
        params: SiteParams,
        querystring: ListQuery,
        response: responses({ 200: Data(Type.Array(ContainerSchema)) }),
      },
    },
    async (request) => ({
      data: await containers.list(principalOf(request), request.params.siteId, {
        hostname: request.query.hostname,
        nodeId: request.query.nodeId === '' ? undefined : request.query.nodeId,
        user: request.query.user,
      }),
    }),
  );

  api.post(
    '/sites/:siteId/containers',
    {
      config: {
        errors: errorsOf(
          'invalid_service',
          'forbidden',
          'site_not_found',
          'user_not_found',
          'no_node',
          'no_nvidia_node',
          'no_address',
          'no_port',
        ),
      },
      schema: {
        tags,
        params: SiteParams,
        body: CreateContainerSchema,
        response: responses({
          201: Data(
            Type.Object({
              containerId: Type.Integer(),
              jobId: Type.Integer(),
              hostname: Type.String(),
              status: ContainerStatusSchema,
            }),
          ),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const data = await containers.create(principalOf(request), request.params.siteId, {
        hostname: body.hostname,
        template: body.template,
        customTemplate: given(body.customTemplate),
        entrypoint: given(body.entrypoint),
        nvidiaRequested: given(body.nvidiaRequested),
        username: given(body.username),
        collaborators: given(body.collaborators),
        environmentVars: given(body.environmentVars),
        services: given(body.services) as Record<string, ServiceInput> | undefined,
      });
      return reply.code(201).send({ data });
    },
  );

  api.get(
    '/sites/:siteId/containers/new',
    {
      config: { errors: errorsOf('site_not_found') },
      schema: {
        tags,
        summary: 'What the new-container form needs',
        params: SiteParams,
        response: responses({
          200: Data(
            Type.Object({
              siteId: Type.Integer(),
              externalDomains: Type.Array(
                Type.Object({ id: Type.Integer(), name: Type.String(), siteId: Nullable(Type.Integer()) }),
              ),
              nvidiaAvailable: Type.Boolean(),
            }),
          ),
        }),
      },
    },
    async (request) => ({ data: await containers.newForm(request.params.siteId) }),
  );

  api.get(
    '/sites/:siteId/containers/metadata',
    {
      config: { errors: errorsOf('image_not_found', 'registry_error') },
      schema: {
        tags,
        summary: 'Ports, HTTP services (image labels), entrypoint and environment of an image',
        params: SiteParams,
        querystring: Type.Object({
          image: Type.String({ minLength: 1 }),
          arch: Type.Optional(
            Type.String({
              pattern: '^[a-z0-9]+(/v[0-9]+)?$',
              description:
                'OCI architecture, with a variant where it matters (arm/v7); default: the architecture ' +
                'of the node a create on this site would choose now (amd64 when it cannot be asked)',
            }),
          ),
        }),
        response: responses({ 200: Data(ImageMetadataSchema) }),
      },
    },
    async (request) => {
      const { siteId } = request.params;
      await services.sites.assertExists(siteId);
      const platform = request.query.arch
        ? parsePlatform(request.query.arch)
        : await containers.platformForNewContainer(siteId);
      return { data: await imageMetadata.lookup(request.query.image, platform) };
    },
  );

  api.get(
    '/sites/:siteId/containers/:id',
    { schema: { tags, params: ContainerParams, response: responses({ 200: Data(ContainerSchema) }) } },
    async (request) => ({
      data: await containers.get(principalOf(request), request.params.siteId, request.params.id),
    }),
  );

  api.put(
    '/sites/:siteId/containers/:id',
    {
      config: { errors: errorsOf('forbidden', 'user_not_found', 'no_instance') },
      schema: {
        tags,
        params: ContainerParams,
        body: UpdateContainerSchema,
        response: responses({
          200: Data(
            Type.Object({
              containerId: Type.Integer(),
              jobId: Nullable(Type.Integer()),
              dnsWarnings: Type.Array(Type.String()),
              message: Type.String(),
            }),
          ),
        }),
      },
    },
    async (request) => {
      const body = request.body ?? {};
      return {
        data: await containerUpdates.update(principalOf(request), request.params.siteId, request.params.id, {
          username: given(body.username),
          services: given(body.services) as Record<string, ServiceInput> | undefined,
          environmentVars: given(body.environmentVars),
          entrypoint: given(body.entrypoint),
          restart: given(body.restart),
        }),
      };
    },
  );

  api.delete(
    '/sites/:siteId/containers/:id',
    {
      config: {
        errors: errorsOf(
          'forbidden',
          'conflict',
          'hostname_mismatch',
          'node_unreachable',
          'provider_error',
          'service_unavailable',
        ),
      },
      schema: {
        tags,
        summary:
          'Deletes the instance on its node, then the record; 409 hostname_mismatch aborts. ' +
          'Its volume folders are kept on the node (keptVolumes; see GET /sites/{siteId}/kept-volumes). ' +
          "The work is a container.delete job (listed in the container's jobs while the container exists); " +
          'the request waits for it and answers with its result, and a second DELETE joins the running one',
        params: ContainerParams,
        response: responses({
          200: Data(
            Type.Object({
              deleted: Type.Boolean(),
              dnsWarnings: Type.Array(Type.String()),
              keptVolumes: Type.Array(Type.Object({ name: Type.String(), hostPath: Type.String() }), {
                description: 'the volume folders left on the node, with their data',
              }),
            }),
          ),
        }),
      },
    },
    async (request) => ({
      data: await containerDeletes.delete(principalOf(request), request.params.siteId, request.params.id),
    }),
  );

  api.get(
    '/sites/:siteId/containers/:id/jobs',
    {
      schema: {
        tags,
        summary:
          "The container's newest jobs (create, apply), newest first; a failed one with its last lines",
        params: ContainerParams,
        response: responses({ 200: Data(Type.Array(ContainerJobSchema)) }),
      },
    },
    async (request) => ({
      data: await containerHistory.jobsOf(principalOf(request), request.params.siteId, request.params.id),
    }),
  );

  api.post(
    '/sites/:siteId/containers/:id/retry',
    {
      config: { errors: errorsOf('forbidden', 'create_not_failed') },
      schema: {
        tags,
        summary: 'Enqueues the create of a container whose create failed again, for the same record',
        params: ContainerParams,
        response: responses({
          202: Data(
            Type.Object({
              containerId: Type.Integer(),
              jobId: Type.Integer(),
              hostname: Type.String(),
              status: ContainerStatusSchema,
            }),
          ),
        }),
      },
    },
    async (request, reply) =>
      reply.code(202).send({
        data: await containerHistory.retryCreate(
          principalOf(request),
          request.params.siteId,
          request.params.id,
        ),
      }),
  );

  api.get(
    '/sites/:siteId/containers/:id/collaborators',
    { schema: { tags, params: ContainerParams, response: responses({ 200: Data(CollaboratorList) }) } },
    async (request) => ({
      data: await collaborators.list(principalOf(request), request.params.siteId, request.params.id),
    }),
  );

  api.post(
    '/sites/:siteId/containers/:id/collaborators',
    {
      config: { errors: errorsOf('forbidden', 'user_not_found', 'already_owner') },
      schema: {
        tags,
        params: ContainerParams,
        body: Type.Object({ username: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: responses({ 201: Data(CollaboratorList) }),
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        data: await collaborators.add(
          principalOf(request),
          request.params.siteId,
          request.params.id,
          request.body.username,
        ),
      }),
  );

  api.delete(
    '/sites/:siteId/containers/:id/collaborators/:username',
    {
      config: { errors: errorsOf('forbidden') },
      schema: { tags, params: CollaboratorParams, response: responses({ 200: Data(CollaboratorList) }) },
    },
    async (request) => ({
      data: await collaborators.remove(
        principalOf(request),
        request.params.siteId,
        request.params.id,
        request.params.username,
      ),
    }),
  );
}
