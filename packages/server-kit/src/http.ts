import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import sjson from 'secure-json-parse';
import { AppError, errorBody, uniqueViolationColumns, type FieldErrors } from './errors.ts';

export interface HttpServerOptions {
  logLevel: string;
  /** Addresses of reverse proxies whose X-Forwarded-For is believed; empty = trust none. */
  trustProxy: string[];
  bodyLimit?: number;
  /** Hides secrets that appear in URLs (tokens in paths) from the request log. */
  redactUrl?: (url: string) => string;
  /** Where log lines go (default standard output). */
  logStream?: { write(line: string): unknown };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer schema-validation failures with this status and code instead of 400 invalid_request. */
    validationError?: { statusCode: number; code: string };
  }
}

export function createHttpServer(options: HttpServerOptions) {
  const redactUrl = options.redactUrl ?? ((url: string) => url);
  const app = Fastify({
    logger: {
      level: options.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip,
        }),
      },
    },
    trustProxy: options.trustProxy.length ? options.trustProxy : false,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    forceCloseConnections: 'idle',
    // Errors the router raises before any route runs: in the envelope like every other answer.
    frameworkErrors: (error, _request, reply) => sendRouterError(error, reply as FastifyReply),
    ajv: {
      customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: true },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // While closing, answer in-flight requests with `Connection: close`, so keep-alive sockets end with
  // them instead of holding the shutdown open until their idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  // Real clients send `Content-Type: application/json` with an empty body on bodiless POSTs.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch {
      done(new AppError(400, 'invalid_request', 'The request body is not valid JSON.'), undefined);
    }
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
