import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, responses, RowId } from '../common/schemas.ts';
import { requireAdmin } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { GroupSchema } from './schemas/identity.ts';
import { errorsOf } from '../errors/catalogue.ts';

const Params = Type.Object({ gidNumber: RowId() });
const GroupBody = Type.Object({
  gidNumber: Type.Optional(RowId()),
  cn: Type.String({ minLength: 1, maxLength: 64 }),
  isAdmin: Type.Optional(Type.Boolean()),
});
const GroupWithoutCount = Type.Omit(GroupSchema, ['userCount']);

export async function groupRoutes(api: Api, services: Services) {
  const { groups } = services;
  const tags = ['Groups'];

  api.get(
    '/groups',
    {
      onRequest: requireAdmin,
      schema: { tags, response: responses({ 200: Data(Type.Array(GroupSchema)) }) },
    },
    async () => ({
      data: await groups.list(),
    }),
  );
  api.post(
    '/groups',
    {
      onRequest: requireAdmin,
      schema: { tags, body: GroupBody, response: responses({ 201: Data(GroupWithoutCount) }) },
    },
    async (request, reply) => reply.code(201).send({ data: await groups.create(request.body) }),
  );
  api.get(
    '/groups/:gidNumber',
    {
      onRequest: requireAdmin,
      schema: { tags, params: Params, response: responses({ 200: Data(GroupSchema) }) },
    },
    async (request) => ({
      data: await groups.get(request.params.gidNumber),
    }),
  );
  api.put(
    '/groups/:gidNumber',
    {
      config: { errors: errorsOf('last_admin') },
      onRequest: requireAdmin,
      schema: {
        tags,
        params: Params,
        body: Type.Partial(Type.Omit(GroupBody, ['gidNumber'])),
        response: responses({ 200: Data(GroupWithoutCount) }),
      },
    },
    async (request) => ({ data: await groups.update(request.params.gidNumber, request.body) }),
  );
  api.delete(
    '/groups/:gidNumber',
    {
      config: { errors: errorsOf('last_admin') },
      onRequest: requireAdmin,
      schema: { tags, params: Params, response: responses({ 204: Type.Null() }) },
    },
    async (request, reply) => {
      await groups.delete(request.params.gidNumber);
      return reply.code(204).send(null);
    },
  );
}
