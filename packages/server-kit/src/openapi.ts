// Keeps the schema fields @fastify/swagger adds (tags, hide) in the built declarations other packages read.
/// <reference types="@fastify/swagger" preserve="true" />
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { stringify } from 'yaml';

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  /** Path prefix of the API, e.g. `/api/v1`; the documents are served under it. */
  prefix: string;
}

/** Must be registered before the routes so every route's schema is collected. */
export async function registerOpenApi(app: FastifyInstance, info: OpenApiInfo) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: info.title, version: info.version, description: info.description },
      servers: [{ url: info.prefix }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'connect.sid' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: ({ schema, url }) => ({
      schema,
      url: url.startsWith(info.prefix) ? url.slice(info.prefix.length) || '/' : url,
    }),
  });
  app.get(
    `${info.prefix}/openapi.json`,
    { schema: { tags: ['Meta'], summary: 'This document as JSON' } },
    async () => app.swagger(),
  );
  app.get(
    `${info.prefix}/openapi.yaml`,
    { schema: { tags: ['Meta'], summary: 'This document as YAML' } },
    async (_request, reply) => reply.type('text/yaml; charset=utf-8').send(stringify(app.swagger())),
  );
}
