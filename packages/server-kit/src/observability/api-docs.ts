import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_DOCS_SESSION_SCRIPT } from './api-docs-session.ts';

/**
 * How the docs page's "Try it out" goes as the signed-in browser (see api-docs-session.ts):
 * where a write's CSRF token is read, which headers mean a key is sent instead, and the project header.
 */
export interface ApiDocsSession {
  /** A same-origin GET answering JSON that holds the session's CSRF token (at `csrfField`, dotted). */
  sessionUrl: string;
  csrfField: string;
  /** Lower-case names of the headers a key travels in. */
  keyHeaders: string[];
  /** The header naming the project: the one remembered in localStorage, else the answer's first `projects`. */
  project?: { header: string; rememberedIn: string };
}

/**
 * The one inline style attribute Swagger UI 6.1 renders (its icon sprite), allowed by its hash alone;
 * the docs page test fails when an upgrade renders another.
 */
const SPRITE_STYLE = "'unsafe-hashes' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/**
 * The interactive API reference (Swagger UI, its assets served from the npm package) at
 * `<prefix>/docs`, over the document registerOpenApi generates. Its Content-Security-Policy is
 * Swagger UI's own (scripts and styles from this origin plus the hashes of its inline parts) without
 * what would reach other hosts: no validator badge, no fonts or styles from elsewhere, no framing.
 */
export async function registerApiDocs(app: FastifyInstance, prefix: string, session: ApiDocsSession) {
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
    // A served file, not inline script: the CSP allows it as 'self'.
    theme: {
      js: [
        {
          filename: 'session.js',
          content: `window.apiDocsSession = ${JSON.stringify(session)};\n${API_DOCS_SESSION_SCRIPT}`,
        },
      ],
    },
    uiConfig: {
      validatorUrl: null,
      deepLinking: true,
      docExpansion: 'list',
      displayRequestDuration: true,
      // Written into Swagger UI's initializer file by its source text: it may name only page globals.
      requestInterceptor: (request) =>
        (globalThis as unknown as { apiDocsRequest(r: typeof request): typeof request }).apiDocsRequest(
          request,
        ),
    },
  });
}
