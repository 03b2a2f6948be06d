import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, IdParams, INT32_MAX, Nullable, responses, RowId } from '../common/schemas.ts';
import { principalOf, requireAdmin, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { ResourceRequestSchema } from './schemas/containers.ts';
import { errorsOf } from '../errors/catalogue.ts';

const ListQuery = Type.Object({
  status: Type.Optional(
    Type.Union([
      Type.Literal('pending'),
      Type.Literal('approved'),
      Type.Literal('denied'),
      Type.Literal('closed'),
      Type.Literal(''),
    ]),
  ),
  siteId: Type.Optional(Type.Union([RowId(), Type.Literal('')])),
});
const CreateBody = Type.Object({
  siteId: RowId(),
  hostname: Type.String({ minLength: 1, maxLength: 255 }),
  resourceType: Type.String({ maxLength: 16, description: 'memory, swap, cpus or rootfs' }),
  value: Type.Integer({
    minimum: 0,
    maximum: INT32_MAX,
    description: 'memory and swap in MB, rootfs in GB, cpus as a count',
  }),
  comment: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  username: Type.Optional(
    Nullable(Type.String({ maxLength: 64, description: 'administrators only; default the caller' })),
  ),
});
const ReviewBody = Type.Object({ adminComment: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))) });
const EffectiveParams = Type.Object({
  siteId: RowId(),
  hostname: Type.String({ minLength: 1, maxLength: 255 }),
  username: Type.String({ minLength: 1, maxLength: 64 }),
});
const Effective = Type.Object({
  cpus: Type.Integer(),
  memory: Type.Integer(),
  swap: Type.Integer(),
  rootfs: Type.Integer(),
});
const Reviewed = Type.Intersect([
  ResourceRequestSchema,
  Type.Object({ jobId: Nullable(Type.Integer({ description: 'job applying it to the container' })) }),
]);

export async function resourceRequestRoutes(api: Api, services: Services) {
  const { resourceRequests } = services;
  const tags = ['Resource requests'];

  api.get(
    '/resource-requests',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Non-admins see their own',
        querystring: ListQuery,
        response: responses({ 200: Data(Type.Array(ResourceRequestSchema)) }),
      },
    },
    async (request) => ({
      data: await resourceRequests.list(principalOf(request), {
        status: request.query.status || undefined,
        siteId: request.query.siteId === '' ? undefined : request.query.siteId,
      }),
    }),
  );

  api.get(
    '/resource-requests/count',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Pending requests',
        response: responses({ 200: Data(Type.Object({ count: Type.Integer() })) }),
      },
    },
    async (request) => ({ data: { count: await resourceRequests.count(principalOf(request)) } }),
  );

  api.post(
    '/resource-requests',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          'Approved at once by `system` within the defaults (4 cpus, 4096 MB, 0 MB swap, 50 GB) or for admins',
        body: CreateBody,
        response: responses({ 201: Data(ResourceRequestSchema) }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      return reply.code(201).send({
        data: await resourceRequests.create(principalOf(request), {
          ...body,
          comment: body.comment ?? undefined,
          username: body.username ?? undefined,
        }),
      });
    },
  );

  api.get(
    '/resource-requests/effective/:siteId/:hostname/:username',
    {
      onRequest: requireUser,
      schema: { tags, params: EffectiveParams, response: responses({ 200: Data(Effective) }) },
    },
    async (request) => ({
      data: await resourceRequests.effective(
        principalOf(request),
        request.params.siteId,
        request.params.hostname,
        request.params.username,
      ),
    }),
  );

  for (const [action, decision] of [
    ['approve', 'approved'],
    ['deny', 'denied'],
  ] as const) {
    api.put(
      `/resource-requests/:id/${action}`,
      {
        config: { errors: errorsOf('already_reviewed') },
        onRequest: requireAdmin,
        schema: { tags, params: IdParams, body: ReviewBody, response: responses({ 200: Data(Reviewed) }) },
      },
      async (request) => ({
        data: await resourceRequests.review(
          principalOf(request),
          request.params.id,
          decision,
          request.body?.adminComment,
        ),
      }),
    );
  }
}
