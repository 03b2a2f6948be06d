import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, IdParams, responses } from '../common/schemas.ts';
import { requireAdmin, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import type { SiteInput } from '../sites/sites-service.ts';
import { SiteInputSchema, SiteSchema } from './schemas/fleet.ts';
import { errorsOf } from '../errors/catalogue.ts';

const SiteWithoutCount = Type.Omit(SiteSchema, ['nodeCount']);

/** An empty externalIp means "not given"; omitted (PUT is a full update) clears it. */
const input = (
  body: Omit<SiteInput, 'externalIp'> & { externalIp?: string | null | undefined },
): SiteInput => ({
  ...body,
  externalIp: body.externalIp?.trim() || null,
});

export async function siteRoutes(api: Api, services: Services) {
  const { sites } = services;
  const tags = ['Sites'];

  api.get(
    '/sites',
    { onRequest: requireUser, schema: { tags, response: responses({ 200: Data(Type.Array(SiteSchema)) }) } },
    async () => ({
      data: await sites.list(),
    }),
  );

  api.post(
    '/sites',
    {
      onRequest: requireAdmin,
      schema: { tags, body: SiteInputSchema, response: responses({ 201: Data(SiteWithoutCount) }) },
    },
    async (request, reply) => reply.code(201).send({ data: await sites.create(input(request.body)) }),
  );

  api.get(
    '/sites/:id',
    {
      onRequest: requireUser,
      schema: { tags, params: IdParams, response: responses({ 200: Data(SiteSchema) }) },
    },
    async (request) => ({ data: await sites.get(request.params.id) }),
  );

  api.put(
    '/sites/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: 'Full update: an omitted externalIp is cleared',
        params: IdParams,
        body: SiteInputSchema,
        response: responses({ 200: Data(SiteWithoutCount) }),
      },
    },
    async (request) => ({ data: await sites.update(request.params.id, input(request.body)) }),
  );

  api.delete(
    '/sites/:id',
    {
      config: { errors: errorsOf('has_nodes') },
      onRequest: requireAdmin,
      schema: { tags, params: IdParams, response: responses({ 204: Type.Null() }) },
    },
    async (request, reply) => {
      await sites.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
}
