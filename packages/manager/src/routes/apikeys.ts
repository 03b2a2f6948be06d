import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, responses } from '../common/schemas.ts';
import { principalOf, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { ApiKeySchema } from './schemas/identity.ts';

const Params = Type.Object({ id: Type.String({ format: 'uuid' }) });

export async function apiKeyRoutes(api: Api, services: Services) {
  const { apiKeys } = services;
  api.addHook('onRequest', requireUser);
  const tags = ['API Keys'];

  api.get(
    '/apikeys',
    { schema: { tags, response: responses({ 200: Data(Type.Array(ApiKeySchema)) }) } },
    async (request) => ({
      data: await apiKeys.list(principalOf(request).uidNumber),
    }),
  );

  api.post(
    '/apikeys',
    {
      schema: {
        tags,
        summary: 'Create an API key; the secret is in data.key and is shown only this once',
        body: Type.Optional(Type.Object({ description: Type.Optional(Type.String({ maxLength: 255 })) })),
        response: responses({
          201: Data(Type.Object({ ...ApiKeySchema.properties, key: Type.String(), warning: Type.String() })),
        }),
      },
    },
    async (request, reply) => {
      const description = request.body?.description?.trim() || null;
      const { apiKey, secret } = await apiKeys.create(principalOf(request).uidNumber, description);
      return reply.code(201).send({
        data: { ...apiKey, key: secret, warning: 'Copy this key now: it will not be shown again.' },
      });
    },
  );

  api.get(
    '/apikeys/:id',
    { schema: { tags, params: Params, response: responses({ 200: Data(ApiKeySchema) }) } },
    async (request) => ({
      data: await apiKeys.get(principalOf(request).uidNumber, request.params.id),
    }),
  );

  api.delete(
    '/apikeys/:id',
    { schema: { tags, params: Params, response: responses({ 204: Type.Null() }) } },
    async (request, reply) => {
      await apiKeys.delete(principalOf(request).uidNumber, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
