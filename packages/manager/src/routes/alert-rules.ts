import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, DateTime, IdParams, Nullable, responses, RowId } from '../common/schemas.ts';
import { requireAdmin } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { MAX_DURATION_S } from '../alerts/alert-rules-service.ts';

const Metric = Type.Union(
  [
    Type.Literal('cpuPercent'),
    Type.Literal('memoryPercent'),
    Type.Literal('diskPercent'),
    Type.Literal('netInBytesPerSecond'),
    Type.Literal('netOutBytesPerSecond'),
  ],
  {
    description: 'CPU, memory and disk in percent of what was allocated; network traffic in bytes per second',
  },
);
const Comparison = Type.Union([Type.Literal('above'), Type.Literal('below')]);
const Scope = Type.Union(
  [
    Type.Literal('containers'),
    Type.Literal('nodes'),
    Type.Literal('site'),
    Type.Literal('node'),
    Type.Literal('container'),
  ],
  {
    description:
      'containers: every container; nodes: every node; site: the nodes and containers of the site scopeId; node: the node scopeId and its containers; container: the container scopeId (its owner is notified too)',
  },
);

const AlertRuleSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  metric: Metric,
  comparison: Comparison,
  threshold: Type.Number(),
  durationSeconds: Type.Integer(),
  scope: Scope,
  scopeId: Nullable(Type.Integer()),
  email: Type.Boolean(),
  webhookUrl: Nullable(Type.String()),
  hasWebhookSecret: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});

const Input = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  metric: Metric,
  comparison: Comparison,
  threshold: Type.Number(),
  durationSeconds: Type.Integer({
    minimum: 0,
    maximum: MAX_DURATION_S,
    description: 'how long the condition must hold',
  }),
  scope: Scope,
  // Null first: with type coercion on, null would otherwise become the integer 0.
  scopeId: Type.Optional(Type.Union([Type.Null(), RowId()])),
  email: Type.Optional(Type.Boolean({ description: 'e-mail the administrators too (when SMTP is set up)' })),
  webhookUrl: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  webhookSecret: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 256,
        description:
          'write-only: signs each webhook body (X-Signature-256: sha256=<hex HMAC-SHA256>); blank keeps the stored one',
      }),
    ),
  ),
});

export async function alertRuleRoutes(api: Api, services: Services) {
  const { alertRules } = services;
  const tags = ['Alert Rules'];

  api.get(
    '/alert-rules',
    {
      onRequest: requireAdmin,
      schema: { tags, response: responses({ 200: Data(Type.Array(AlertRuleSchema)) }) },
    },
    async () => ({ data: await alertRules.list() }),
  );
  api.post(
    '/alert-rules',
    {
      onRequest: requireAdmin,
      schema: { tags, body: Input, response: responses({ 201: Data(AlertRuleSchema) }) },
    },
    async (request, reply) => reply.code(201).send({ data: await alertRules.create(request.body) }),
  );
  api.get(
    '/alert-rules/:id',
    {
      onRequest: requireAdmin,
      schema: { tags, params: IdParams, response: responses({ 200: Data(AlertRuleSchema) }) },
    },
    async (request) => ({ data: await alertRules.get(request.params.id) }),
  );
  api.put(
    '/alert-rules/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary:
          'Full update; the webhook secret is kept when blank or omitted; pending and firing states start over',
        params: IdParams,
        body: Input,
        response: responses({ 200: Data(AlertRuleSchema) }),
      },
    },
    async (request) => ({ data: await alertRules.update(request.params.id, request.body) }),
  );
  api.delete(
    '/alert-rules/:id',
    {
      onRequest: requireAdmin,
      schema: { tags, params: IdParams, response: responses({ 204: Type.Null() }) },
    },
    async (request, reply) => {
      await alertRules.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
}
