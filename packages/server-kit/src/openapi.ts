// Keeps the schema fields @fastify/swagger adds (tags, hide) in the built declarations other packages read.
/// <reference types="@fastify/swagger" preserve="true" />
import swagger from '@fastify/swagger';
import { EncodedBody, sendEncoded } from './encoded-body.ts';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { stringify } from 'yaml';
import { errorResponses, type ErrorCodes } from './openapi-errors.ts';

export type SecurityScheme =
  | { type: 'apiKey'; in: 'header' | 'cookie'; name: string; description?: string }
  | { type: 'http'; scheme: 'bearer'; description?: string };

/** One way to authenticate: every scheme it names, sent together. */
export type SecurityRequirement = Record<string, string[]>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  /** Path prefix of the API, e.g. `/api/v1`; the documents are served under it. */
  prefix: string;
  /** Errors a route's guards imply (the credentials it needs), beside those every route can give. */
  errorsOf?: (route: RouteOptions) => ErrorCodes | undefined;
  /** The service's own credentials, by scheme name. */
  securitySchemes: Record<string, SecurityScheme>;
  /**
   * The ways a route's caller may authenticate, for its entry (where its schema names none itself);
   * undefined for a route that takes no credential.
   */
  securityOf: (route: RouteOptions) => SecurityRequirement[] | undefined;
}

/** Must be registered before the routes so every route's schema is collected. */
export async function registerOpenApi(app: FastifyInstance, info: OpenApiInfo) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: info.title, version: info.version, description: info.description },
      servers: [{ url: info.prefix }],
      components: { securitySchemes: info.securitySchemes },
    },
    transform: ({ schema, url, route }) => ({
      schema: documented(schema, route, info),
      url: url.startsWith(info.prefix) ? url.slice(info.prefix.length) || '/' : url,
    }),
  });
  // Made once, on the first request: the document is fixed once the routes are (470 KB of JSON, sent
  // compressed to the clients that take it).
  let json: EncodedBody | undefined;
  let yaml: EncodedBody | undefined;
  app.get(
    `${info.prefix}/openapi.json`,
    { config: { public: true }, schema: { tags: ['Meta'], summary: 'This document as JSON' } },
    async (request, reply) =>
      sendEncoded(
        request,
        reply.type('application/json; charset=utf-8'),
        (json ??= new EncodedBody(JSON.stringify(app.swagger()))),
      ),
  );
  app.get(
    `${info.prefix}/openapi.yaml`,
    { config: { public: true }, schema: { tags: ['Meta'], summary: 'This document as YAML' } },
    async (request, reply) =>
      sendEncoded(
        request,
        reply.type('text/yaml; charset=utf-8'),
        (yaml ??= new EncodedBody(stringify(app.swagger()))),
      ),
  );
}

/**
 * The route's schema with its error answers listed status by status (code enums) in place of the
 * `4xx`/`5xx` ranges the serialiser uses, and the credentials it takes. Only the document changes:
 * Fastify keeps the route's own schema.
 */
function documented<S>(schema: S, route: RouteOptions, info: OpenApiInfo): S {
  const { response = { 200: { description: 'OK' } }, ...rest } = (schema ?? {}) as {
    response?: Record<string, unknown>;
    hide?: boolean;
    security?: SecurityRequirement[];
  };
  if (rest.hide) return schema;
  const success = Object.fromEntries(
    Object.entries(response).filter(([status]) => status !== '4xx' && status !== '5xx'),
  );
  const security = rest.security ?? info.securityOf(route);
  return {
    ...rest,
    ...(security ? { security } : {}),
    response: { ...success, ...errorResponses(route, info.errorsOf?.(route)) },
  } as S;
}
