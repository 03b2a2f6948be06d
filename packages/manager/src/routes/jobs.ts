import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, IdParams, INT32_MAX, responses } from '../common/schemas.ts';
import { principalOf, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { JobSchema, JobStatusRowSchema } from './schemas/fleet.ts';
import { errorsOf } from '../errors/catalogue.ts';

const PageQuery = Type.Object({
  offset: Type.Integer({ minimum: 0, maximum: INT32_MAX, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 1000 }),
});
const StreamQuery = Type.Object({ lastId: Type.Optional(Type.Integer({ minimum: 0, maximum: INT32_MAX })) });

/** `Last-Event-ID` (set by EventSource on reconnect) or the `lastId` query; the larger wins. */
function resumeFrom(query: number | undefined, header: string | string[] | undefined): number {
  const fromHeader = typeof header === 'string' && /^\d+$/.test(header.trim()) ? Number(header.trim()) : 0;
  return Math.max(query ?? 0, fromHeader);
}

export async function jobRoutes(api: Api, services: Services) {
  const { jobs, jobStreams } = services;
  const tags = ['Jobs'];
  api.addHook('onRequest', requireUser);
  // Open streams must not keep the server from closing.
  api.addHook('preClose', async () => jobStreams.closeAll());

  api.get(
    '/jobs/:id',
    { schema: { tags, params: IdParams, response: responses({ 200: Data(JobSchema) }) } },
    async (request) => ({
      data: await jobs.getFor(principalOf(request), request.params.id),
    }),
  );

  api.get(
    '/jobs/:id/status',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: PageQuery,
        response: responses({ 200: Data(Type.Array(JobStatusRowSchema)) }),
      },
    },
    async (request) => ({
      data: await jobs.rowsFor(
        principalOf(request),
        request.params.id,
        request.query.offset,
        request.query.limit,
      ),
    }),
  );

  api.get(
    '/jobs/:id/stream',
    {
      config: { errors: errorsOf('too_many_streams') },
      schema: {
        tags,
        summary:
          'Server-sent events: `log` {id, output, timestamp} per output row, then one `status` {status}',
        description:
          'Resumes after `lastId` or the Last-Event-ID header. Keep-alive comments every 15 s. ' +
          '429 too_many_streams when the caller (JOB_STREAMS_PER_USER) or the server (JOB_STREAMS_MAX) has ' +
          'too many streams open.',
        params: IdParams,
        querystring: StreamQuery,
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await jobs.getFor(principal, request.params.id);
      const place = jobStreams.reserve(principal.uidNumber);
      reply.hijack();
      await jobStreams.stream(
        request.params.id,
        resumeFrom(request.query.lastId, request.headers['last-event-id']),
        reply.raw,
        place,
      );
      return reply;
    },
  );

  api.post(
    '/jobs/:id/cancel',
    {
      config: { errors: errorsOf('job_finished') },
      schema: {
        tags,
        summary: 'pending or running → cancelled; a running handler is aborted',
        params: IdParams,
        response: responses({ 200: Data(JobSchema) }),
      },
    },
    async (request) => ({ data: await jobs.cancel(principalOf(request), request.params.id) }),
  );
}
