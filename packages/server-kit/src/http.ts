import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { pino } from 'pino';
import sjson from 'secure-json-parse';
import {
  AppError,
  badRequest,
  errorBody,
  isDatabaseUnavailable,
  uniqueViolationColumns,
  type FieldErrors,
} from './errors.ts';
import { DEFAULT_SECURITY_HEADERS } from './dashboard-headers.ts';
import type { HttpMetrics } from './observability/http-metrics.ts';
import { lazyChildLogger } from './observability/lazy-child-logger.ts';
import { requestId } from './observability/request-id.ts';
import { RequestLog } from './observability/request-log.ts';
import { lazySchemaCompilers } from './lazy-schema-compilers.ts';
import { RateLimit, type RateLimitOptions } from './rate-limit.ts';

export interface HttpServerOptions {
  logLevel: string;
  /** Addresses of reverse proxies whose X-Forwarded-For is believed; empty = trust none. */
  trustProxy: string[];
  bodyLimit?: number;
  /** Hides secrets that appear in URLs (tokens in paths) from the request log. */
  redactUrl?: (url: string) => string;
  /** Where log lines go (default standard output). */
  logStream?: { write(line: string): unknown };
  /** Share of successful fast reads that get a request log line (see RequestLog); default 1. */
  requestLogSample?: number | undefined;
  /** Counts and times every answer by method, route pattern (never the raw URL) and status. */
  metrics?: HttpMetrics;
  /** Blocks addresses that keep failing (see RateLimit). */
  rateLimit?: RateLimitOptions;
  /** How long close() waits for answers in flight before cutting their connections (default 10 s). */
  closeGraceMs?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer schema-validation failures with this status and code instead of 400 invalid_request. */
    validationError?: { statusCode: number; code: string };
  }
}

export interface RouteEntry {
  method: string;
  /** The route's pattern, as registered (`/api/jobs/:id`, `/*`). */
  url: string;
}
const registeredRoutes = new WeakMap<object, RouteEntry[]>();

/** Every route of an app createHttpServer made, documented or not (the tests walk them). */
export const routesOf = (app: object): readonly RouteEntry[] => registeredRoutes.get(app) ?? [];

/** Longest text value a JSON body may carry (a field with a smaller bound says so in its schema). */
export const MAX_JSON_STRING_LENGTH = 65_536;
/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

let stdout: ReturnType<typeof pino.destination> | undefined;
/**
 * Standard output, written asynchronously: lines logged within one turn of the event loop leave in one
 * write (no write call per line under load, no delay when idle); pino flushes what is left on exit.
 */
function standardOutput() {
  stdout ??= pino.destination({ dest: 1, sync: false });
  return stdout;
}

/** A `\u0000` escape in JSON text (not an escaped backslash followed by "u0000"). */
const NUL_ESCAPE = /(?<!\\)(?:\\\\)*\\u0000/i;

export function createHttpServer(options: HttpServerOptions) {
  const redactUrl = options.redactUrl ?? ((url: string) => url);
  const app = Fastify({
    logger: {
      level: options.logLevel,
      stream: options.logStream ?? standardOutput(),
      // No redaction pass on every line: `req` is logged only through this serializer, which keeps no
      // header, cookie or body, and the URL is redacted by the service.
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip,
        }),
      },
    },
    trustProxy: options.trustProxy.length ? options.trustProxy : false,
    genReqId: requestId,
    childLoggerFactory: lazyChildLogger,
    requestIdHeader: false,
    logController: new RequestLog(options.requestLogSample),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    forceCloseConnections: 'idle',
    // Errors the router raises before any route runs: in the envelope like every other answer.
    frameworkErrors: (error, _request, reply) => sendRouterError(error, reply as FastifyReply),
    clientErrorHandler: answerClientError,
    schemaController: { compilersFactory: lazySchemaCompilers },
    ajv: {
      customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: true },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // One hook per stage for everything every request pays (id, NUL, rate limit, metrics): each hook
  // costs Fastify's runner machinery per request, and callback style costs no promise.
  // close() waits for answers in flight; a client that stops reading one (a stalled download) would
  // hold it forever, so its connection is cut after the grace.
  app.addHook('preClose', (done) => {
    const cut = setTimeout(() => app.server.closeAllConnections(), options.closeGraceMs ?? 10_000);
    cut.unref();
    app.server.once('close', () => clearTimeout(cut));
    done();
  });
  const routes: RouteEntry[] = [];
  registeredRoutes.set(app, routes);
  app.addHook('onRoute', ({ method, url }) => {
    for (const one of [method].flat()) routes.push({ method: one, url });
  });
  const rateLimit = options.rateLimit && new RateLimit(options.rateLimit);
  if (rateLimit) app.addHook('onClose', (_instance, done) => (rateLimit.close(), done()));
  const { metrics } = options;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // NUL is no text anyone means, and PostgreSQL cannot store it: refused before any route sees it.
    if (request.url.includes('%00')) return done(badRequest('The URL must not contain %00 (NUL).'));
    done(rateLimit?.refusal(request));
  });
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    metrics?.record(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      status,
      reply.elapsedTime / 1000,
    );
    rateLimit?.answered(request, status);
    done();
  });

  // While closing, answer in-flight requests with `Connection: close`, so keep-alive sockets end with
  // them instead of holding the shutdown open until their idle timeout.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    for (const name in DEFAULT_SECURITY_HEADERS)
      if (!reply.hasHeader(name)) reply.header(name, DEFAULT_SECURITY_HEADERS[name]);
    done(null, payload);
  });

  // JSON only: a text/plain body is what a cross-site form can send without a preflight.
  app.removeContentTypeParser('text/plain');
  // Real clients send `Content-Type: application/json` with an empty body on bodiless POSTs.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    let value: unknown;
    try {
      value = sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
    } catch {
      return done(badRequest('The request body is not valid JSON.'), undefined);
    }
    if (NUL_ESCAPE.test(text)) return done(badRequest('Text must not contain NUL (\\u0000).'), undefined);
    // Both need more text than the limit they check, so short bodies skip the walk.
    if (text.length > MAX_JSON_STRING_LENGTH && hasLongString(value)) {
      return done(badRequest(`Text values are limited to ${MAX_JSON_STRING_LENGTH} characters.`), undefined);
    }
    if (text.length > 2 * MAX_JSON_DEPTH && nestedDeeperThan(value, MAX_JSON_DEPTH)) {
      return done(badRequest(`JSON may be nested at most ${MAX_JSON_DEPTH} levels deep.`), undefined);
    }
    done(null, value);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(errorBody('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`));
  });
  return app;
}

export type HttpServer = ReturnType<typeof createHttpServer>;

/** Iterative, so no nesting depth can overflow the stack. */
function hasLongString(value: unknown): boolean {
  const pending = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item === 'string' && item.length > MAX_JSON_STRING_LENGTH) return true;
    if (item && typeof item === 'object') pending.push(...Object.values(item));
  }
  return false;
}

/** Iterative, like hasLongString. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (!item || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * A request Node's HTTP parser refused (headers too large, malformed, too slow): answered in the
 * envelope like everything else, then the connection is closed.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request line or headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive.']
        : [400, 'invalid_request', 'The request is not valid HTTP.'];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Errors the router raises before any route runs, in the envelope like every other answer. */
function sendRouterError(error: FastifyError, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply
      .code(414)
      .send(errorBody('uri_too_long', 'A part of the path is too long (at most 100 characters).'));
  }
  return reply.code(400).send(errorBody('invalid_request', 'The URL is not valid: check its %-escapes.'));
}

function validationFields(error: FastifyError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.validation ?? []) {
    const params = issue.params as { missingProperty?: string };
    const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const name = params.missingProperty
      ? path
        ? `${path}.${params.missingProperty}`
        : params.missingProperty
      : path;
    const key = name || error.validationContext || 'body';
    fields[key] ??= params.missingProperty ? 'is required' : (issue.message ?? 'is invalid');
  }
  return fields;
}

export function sendError(
  error: FastifyError | AppError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof AppError) {
    if (error.headers) reply.headers(error.headers);
    return reply.code(error.statusCode).send(errorBody(error.code, error.message, error.fields));
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const custom = request.routeOptions.config?.validationError;
    const fields = validationFields(fastifyError);
    const message = `Invalid ${fastifyError.validationContext ?? 'request'}: ${Object.entries(fields)
      .map(([field, problem]) => `${field} ${problem}`)
      .join('; ')}.`;
    return reply
      .code(custom?.statusCode ?? 400)
      .send(errorBody(custom?.code ?? 'invalid_request', message, fields));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return reply
      .code(503)
      .header('retry-after', '5')
      .send(
        errorBody(
          'service_unavailable',
          'The database cannot be reached right now. Try again in a few seconds.',
        ),
      );
  }
  const columns = uniqueViolationColumns(error);
  if (columns) {
    const fields = Object.fromEntries(columns.map((column) => [column, 'is already taken']));
    return reply.code(409).send(errorBody('conflict', `Already exists: ${columns.join(', ')}.`, fields));
  }
  const status = fastifyError.statusCode ?? 500;
  if (status < 500) {
    const code =
      status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'invalid_request';
    return reply.code(status).send(errorBody(code, fastifyError.message));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply
    .code(500)
    .send(errorBody('internal_error', 'Something went wrong on our side. Try again later.'));
}
