import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * The interactive API reference (Swagger UI, its assets served from the npm package) at
 * `<prefix>/docs`, over the document registerOpenApi generates. Its Content-Security-Policy is
 * Swagger UI's own (scripts and styles from this origin plus the hashes of its inline parts) without
 * what would reach other hosts: no validator badge, no fonts or styles from elsewhere, no framing.
 */
/**
 * The one inline style attribute Swagger UI 6.1 renders (its icon sprite), allowed by its hash alone;
 * the docs page test fails when an upgrade renders another.
 */
const SPRITE_STYLE = "'unsafe-hashes' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

export async function registerApiDocs(app: FastifyInstance, prefix: string) {
  await app.register(swaggerUi, {
    routePrefix: `${prefix}/docs`,
    staticCSP: true,
    transformStaticCSP: (header) =>
      `${header
        .replace(' validator.swagger.io', '')
        .replace(/ https:/g, '')
        .replace(/frame-ancestors 'self'/, "frame-ancestors 'none'")
        .replace(/style-src 'self'/, `style-src 'self' ${SPRITE_STYLE}`)
        .replace(/\s*upgrade-insecure-requests;?/, '')} form-action 'self'; connect-src 'self';`,
    uiConfig: { validatorUrl: null, deepLinking: true, docExpansion: 'list', displayRequestDuration: true },
  });
}
