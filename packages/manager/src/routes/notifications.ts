import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { forbidden, guardWithErrors, unauthorized } from '@app/server-kit';
import type { Api } from '../common/api.ts';
import { Data, DateTime, IdParams, INT32_MAX, Nullable, responses } from '../common/schemas.ts';
import { principalOf, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { errorsOf } from '../errors/catalogue.ts';

/** 9999-12-31T23:59:59Z: the last second an ISO date-time can say. */
const LATEST_TS = 253_402_300_799;
const Severity = Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('critical')]);
const NotificationSchema = Type.Object({
  id: Type.Integer(),
  source: Type.String(),
  severity: Severity,
  node: Nullable(Type.String()),
  ctid: Nullable(Type.String()),
  owner: Nullable(Type.String()),
  action: Nullable(Type.String()),
  message: Type.String(),
  evidence: Nullable(Type.Object({}, { additionalProperties: true })),
  eventAt: Nullable(DateTime),
  acknowledgedAt: Nullable(DateTime),
  acknowledgedBy: Nullable(Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime,
});

/** Node-side tools post with an administrator's API key, never with a browser session. */
const adminApiKey = guardWithErrors(errorsOf('forbidden'), async (request: FastifyRequest) => {
  if (!request.principal) throw unauthorized('Send an administrator API key as a Bearer token.');
  if (request.principal.via !== 'apikey' || !request.principal.isAdmin) {
    throw forbidden('Notifications are posted with an administrator API key.');
  }
});

export async function notificationRoutes(api: Api, services: Services) {
  const { notifications } = services;
  const tags = ['Notifications'];

  api.post(
    '/notifications',
    {
      onRequest: adminApiKey,
      schema: {
        tags,
        security: [{ bearer: [] }],
        body: Type.Object({
          source: Type.String({ minLength: 1, maxLength: 255 }),
          severity: Severity,
          message: Type.String({ minLength: 1, maxLength: 65_536 }),
          node: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
          ctid: Type.Optional(
            Nullable(
              Type.Union([Type.Integer({ minimum: 0, maximum: INT32_MAX }), Type.String({ maxLength: 128 })]),
            ),
          ),
          owner: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
          action: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
          evidence: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
          ts: Type.Optional(
            Type.Integer({ minimum: 0, maximum: LATEST_TS, description: 'epoch seconds, up to year 9999' }),
          ),
        }),
        response: responses({ 201: Data(NotificationSchema) }),
      },
    },
    async (request, reply) => reply.code(201).send({ data: await notifications.create(request.body) }),
  );

  api.get(
    '/notifications',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "The caller's notifications: unacknowledged first, then newest",
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) }),
        response: responses({ 200: Data(Type.Array(NotificationSchema)) }),
      },
    },
    async (request) => ({
      data: await notifications.list(principalOf(request).uidNumber, request.query.limit),
    }),
  );

  api.post(
    '/notifications/all/ack',
    {
      onRequest: requireUser,
      schema: { tags, response: responses({ 200: Data(Type.Object({ acknowledged: Type.Integer() })) }) },
    },
    async (request) => ({
      data: { acknowledged: await notifications.acknowledgeAll(principalOf(request).uidNumber) },
    }),
  );

  api.post(
    '/notifications/:id/ack',
    {
      onRequest: requireUser,
      schema: { tags, params: IdParams, response: responses({ 200: Data(NotificationSchema) }) },
    },
    async (request) => ({
      data: await notifications.acknowledge(principalOf(request).uidNumber, request.params.id),
    }),
  );
}
