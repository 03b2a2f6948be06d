import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * The interactive API reference (Swagger UI, its assets served from the npm package) at
 * `<prefix>/docs`, over the document registerOpenApi generates. Its Content-Security-Policy is
 * Swagger UI's own (scripts and styles from this origin plus the hashes of its inline parts) without
 * what would reach other hosts: no validator badge, no fonts or styles from elsewhere, no framing.
 */
export async function registerApiDocs(app: FastifyInstance, prefix: string) {
  await app.register(swaggerUi, {
    routePrefix: `${prefix}/docs`,
    staticCSP: true,
    transformStaticCSP: (header) =>
      `${header
        .replace(' validator.swagger.io', '')
        .replace(/ https:/g, '')
        .replace(/frame-ancestors 'self'/, "frame-ancestors 'none'")
        .replace(/\s*upgrade-insecure-requests;?/, '')} form-action 'self'; connect-src 'self';`,
    uiConfig: { validatorUrl: null, deepLinking: true, docExpansion: 'list', displayRequestDuration: true },
  });
}
