import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, IdParams, Nullable, responses } from '../common/schemas.ts';
import { principalOf, requireAdmin, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { ResourceRequestSchema } from './schemas/containers.ts';

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
  siteId: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Literal('')])),
});
const CreateBody = Type.Object({
  siteId: Type.Integer({ minimum: 1 }),
  hostname: Type.String({ minLength: 1 }),
  resourceType: Type.String({ description: 'memory, swap, cpus or rootfs' }),
  value: Type.Integer({ description: 'memory and swap in MB, rootfs in GB, cpus as a count' }),
  comment: Type.Optional(Nullable(Type.String())),
  username: Type.Optional(Nullable(Type.String({ description: 'administrators only; default the caller' }))),
});
const ReviewBody = Type.Object({ adminComment: Type.Optional(Nullable(Type.String())) });
const EffectiveParams = Type.Object({
  siteId: Type.Integer({ minimum: 1 }),
  hostname: Type.String({ minLength: 1 }),
  username: Type.String({ minLength: 1 }),
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
