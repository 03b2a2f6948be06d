import { Type, type Static } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, DateTime, INT32_MAX, responses, RowId } from '../common/schemas.ts';
import { principalOf, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import type { LogQuery } from '../containers/container-logs.ts';
import { errorsOf } from '../errors/catalogue.ts';

const ContainerParams = Type.Object({ siteId: RowId(), id: RowId() });
const LogsQuery = Type.Object({
  since: Type.Optional(DateTime),
  until: Type.Optional(DateTime),
  stream: Type.Union([Type.Literal('stdout'), Type.Literal('stderr'), Type.Literal('both')], {
    default: 'both',
  }),
  tail: Type.Optional(
    Type.Integer({ minimum: 1, maximum: INT32_MAX, description: 'lines read from the end of the log' }),
  ),
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'keeps the lines containing it (any case)' }),
  ),
});
const LogLineSchema = Type.Object({
  time: DateTime,
  stream: Type.Union([Type.Literal('stdout'), Type.Literal('stderr')]),
  text: Type.String(),
});
const LogPageSchema = Type.Object({ lines: Type.Array(LogLineSchema), truncated: Type.Boolean() });

const READ_ERRORS = errorsOf('invalid_request', 'no_instance', 'node_unreachable', 'provider_error');
const WHAT =
  'Engine nodes: the container’s stdout and stderr. Proxmox VE: its task history (each task’s header ' +
  'line, then its log; a failed task’s lines are stderr). The simulated node prints a line a second. ' +
  '`tail` lines are read from the end of the log, both streams counted (at most, and by default, ' +
  'CONTAINER_LOG_LINES_MAX), then `stream` and `search` keep theirs. Owner, collaborators and administrators.';

const queryOf = (query: Static<typeof LogsQuery>): LogQuery => ({
  since: query.since === undefined ? undefined : new Date(query.since),
  until: query.until === undefined ? undefined : new Date(query.until),
  stream: query.stream,
  tail: query.tail,
  search: query.search,
});

/** `2026-11-27T23:00:00.000Z stdout text` per line. */
const asText = (lines: { time: string; stream: string; text: string }[]) =>
  lines.map((line) => `${line.time} ${line.stream} ${line.text}\n`).join('');

export async function containerLogRoutes(api: Api, services: Services) {
  const { containerLogs, logFollows, containers } = services;
  const tags = ['Containers'];
  api.addHook('onRequest', requireUser);
  api.addHook('preClose', async () => logFollows.closeAll());
  const base = '/sites/:siteId/containers/:id/logs';

  api.get(
    base,
    {
      config: { errors: READ_ERRORS },
      schema: {
        tags,
        summary: 'The last lines of the container’s output',
        description: `${WHAT} \`truncated\`: the log had more lines than one answer holds.`,
        params: ContainerParams,
        querystring: LogsQuery,
        response: responses({ 200: Data(LogPageSchema) }),
      },
    },
    async (request) => {
      const { siteId, id } = request.params;
      return { data: await containerLogs.read(principalOf(request), siteId, id, queryOf(request.query)) };
    },
  );

  api.get(
    `${base}/download`,
    {
      config: { errors: READ_ERRORS },
      schema: {
        tags,
        summary: 'The same lines as a text file (`time stream text` per line)',
        description: WHAT,
        params: ContainerParams,
        querystring: LogsQuery,
        produces: ['text/plain'],
      },
    },
    async (request, reply) => {
      const { siteId, id } = request.params;
      const principal = principalOf(request);
      const page = await containerLogs.read(principal, siteId, id, queryOf(request.query));
      const { hostname } = await containers.record(principal, siteId, id, 'read');
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${hostname}-logs.txt"`)
        .send(asText(page.lines));
    },
  );

  api.get(
    `${base}/stream`,
    {
      config: {
        errors: errorsOf(
          'invalid_request',
          'no_instance',
          'node_unreachable',
          'provider_error',
          'too_many_streams',
        ),
      },
      schema: {
        tags,
        summary:
          'Follows the output: server-sent events `line` {time, stream, text}, then `end` or `failure`',
        description:
          `${WHAT} Starts with the last 100 lines (or \`tail\`, or from \`since\`), then pushes each new ` +
          "line as the node writes it (Proxmox VE: new tasks of the container and the running ones' new lines, " +
          'asked for every second); `end` when the node ends the log (the container stopped), ' +
          '`failure` {message} when reading fails. Keep-alive comments every ' +
          'SSE_KEEPALIVE_S. 429 too_many_streams past CONTAINER_LOG_FOLLOWS_PER_USER or CONTAINER_LOG_FOLLOWS_MAX.',
        params: ContainerParams,
        querystring: LogsQuery,
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const { siteId, id } = request.params;
      const principal = principalOf(request);
      const place = logFollows.reserve(principal.uidNumber);
      let opened;
      try {
        opened = await containerLogs.follow(principal, siteId, id, queryOf(request.query));
      } catch (error) {
        place.release();
        throw error;
      }
      reply.hijack();
      await logFollows.stream(place, reply.raw, opened.lines, opened.abort, (error) =>
        containerLogs.failureText(principal, error),
      );
      return reply;
    },
  );
}
