import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, DateTime, Nullable, responses, RowId, SiteParams } from '../common/schemas.ts';
import { requireAdmin } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';

const AgentTokenSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  siteId: Type.Integer(),
  tokenPrefix: Type.String(),
  description: Nullable(Type.String()),
  lastUsedAt: Nullable(DateTime),
  createdAt: DateTime,
});
const TokenParams = Type.Object({
  siteId: RowId(),
  id: Type.String({ format: 'uuid' }),
});

/** Per-site agent tokens (admins): what a site agent on another host checks in with. */
export async function agentTokenRoutes(api: Api, services: Services) {
  const { agentTokens } = services;
  const tags = ['Agents'];

  api.get(
    '/sites/:siteId/agent-tokens',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: "The site's agent tokens (never their secrets)",
        params: SiteParams,
        response: responses({ 200: Data(Type.Array(AgentTokenSchema)) }),
      },
    },
    async (request) => ({ data: await agentTokens.list(request.params.siteId) }),
  );

  api.post(
    '/sites/:siteId/agent-tokens',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary:
          "Create an agent token for the site's agent (AGENT_TOKEN); the secret is in data.token and is shown only this once",
        params: SiteParams,
        body: Type.Optional(Type.Object({ description: Type.Optional(Type.String({ maxLength: 255 })) })),
        response: responses({
          201: Data(
            Type.Object({ ...AgentTokenSchema.properties, token: Type.String(), warning: Type.String() }),
          ),
        }),
      },
    },
    async (request, reply) => {
      const description = request.body?.description?.trim() || null;
      const { token, secret } = await agentTokens.create(request.params.siteId, description);
      const warning =
        "Copy this token now into the agent's AGENT_TOKEN: it will not be shown again. It is good only for this site's check-in and traffic reports.";
      return reply.code(201).send({ data: { ...token, token: secret, warning } });
    },
  );

  api.delete(
    '/sites/:siteId/agent-tokens/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: 'Revoke an agent token: the agent using it is refused from now on',
        params: TokenParams,
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await agentTokens.revoke(request.params.siteId, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
