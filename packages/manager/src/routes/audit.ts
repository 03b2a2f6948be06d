import { Readable } from 'node:stream';
import { Type, type Static } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, DateTime, INT32_MAX, Nullable, responses, RowId } from '../common/schemas.ts';
import { principalOf, requireAdmin, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import type { AuditFilter } from '../audit/audit-entry.ts';
import { auditCsv } from '../audit/audit-csv.ts';

const AuditEventSchema = Type.Object({
  id: Type.Integer(),
  occurredAt: DateTime,
  actor: Type.Object({
    uidNumber: Nullable(Type.Integer()),
    uid: Nullable(Type.String()),
    apiKeyId: Nullable(Type.String()),
    kind: Type.Union([Type.Literal('user'), Type.Literal('apikey'), Type.Literal('system')]),
  }),
  sourceAddress: Nullable(Type.String()),
  action: Type.String(),
  target: Type.Object({
    type: Nullable(Type.String()),
    id: Nullable(Type.String()),
    siteId: Nullable(Type.Integer()),
    containerId: Nullable(Type.Integer()),
  }),
  outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  httpStatus: Nullable(Type.Integer()),
  errorCode: Nullable(Type.String()),
  details: Nullable(Type.Object({}, { additionalProperties: true })),
});
const Page = Data(
  Type.Object({
    events: Type.Array(AuditEventSchema),
    nextCursor: Nullable(Type.Integer({ description: 'pass as `cursor` for the next (older) page' })),
  }),
);
const PageQuery = {
  cursor: Type.Optional(Type.Integer({ minimum: 1, maximum: INT32_MAX })),
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
};
const Filters = {
  user: Type.Optional(RowId({ description: "the actor's uidNumber" })),
  site: Type.Optional(RowId()),
  container: Type.Optional(RowId()),
  action: Type.Optional(
    Type.String({ maxLength: 64, description: 'an action, or a prefix ending in `.` (`container.`)' }),
  ),
  from: Type.Optional(DateTime),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'exclusive' })),
};
const FilterQuery = Type.Object(Filters);
const ListQuery = Type.Object({ ...Filters, ...PageQuery });

function filterOf(query: Static<typeof FilterQuery>): AuditFilter {
  return {
    ...(query.user !== undefined ? { uidNumber: query.user } : {}),
    ...(query.site !== undefined ? { siteId: query.site } : {}),
    ...(query.container !== undefined ? { containerId: query.container } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
  };
}

export async function auditRoutes(api: Api, services: Services) {
  const { audit } = services;
  const tags = ['Audit log'];

  api.get(
    '/audit-events',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: 'Audit log entries, newest first, one page at a time',
        querystring: ListQuery,
        response: responses({ 200: Page }),
      },
    },
    async (request) => {
      const { cursor, limit } = request.query;
      return { data: await audit.page(filterOf(request.query), limit, cursor) };
    },
  );

  api.get(
    '/audit-events.csv',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: 'The audit log entries matching the filters as CSV (header row first), streamed',
        querystring: FilterQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .send(Readable.from(auditCsv(audit.all(filterOf(request.query))))),
  );

  api.get(
    '/users/me/activity',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "The caller's own audit log entries, newest first",
        querystring: Type.Object(PageQuery),
        response: responses({ 200: Page }),
      },
    },
    async (request) => {
      const { cursor, limit } = request.query;
      return { data: await audit.page({ uidNumber: principalOf(request).uidNumber }, limit, cursor) };
    },
  );
}
