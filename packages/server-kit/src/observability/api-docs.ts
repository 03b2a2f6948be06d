import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { API_DOCS_SESSION_SCRIPT } from './api-docs-session.ts';
import { asOpenApi30 } from './openapi-30.ts';

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

/** The 3.0 rendition of each generated document (@fastify/swagger makes the document once). */
const renditions = new WeakMap<object, object>();

/**
 * The interactive API reference (Swagger UI, its assets served from the npm package) at
 * `<prefix>/docs`, over the document registerOpenApi generates. Its Content-Security-Policy is
 * Swagger UI's own (scripts and styles from this origin plus the hashes of its inline parts) without
 * what would reach other hosts: no validator badge, no fonts or styles from elsewhere, no framing.
 */
export async function registerApiDocs(app: FastifyInstance, prefix: string, session: ApiDocsSession) {
  await app.register(async (docs) => {
    await docs.register(compress, DOCS_COMPRESSION);
    await docs.register(swaggerUi, swaggerUiOptions(prefix, session));
  });
}

/**
 * The page's files (1.7 MB of Swagger UI, the document) go compressed to a browser that takes br or
 * gzip, with `Vary: Accept-Encoding`. The docs are read now and then: brotli at quality 5 costs tens of
 * milliseconds per file, quality 11 seconds.
 */
const DOCS_COMPRESSION = {
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  globalDecompression: false,
};

function swaggerUiOptions(prefix: string, session: ApiDocsSession): FastifySwaggerUiOptions {
  return {
    routePrefix: `${prefix}/docs`,
    staticCSP: true,
    transformStaticCSP: (header) =>
      `${header
        .replace(' validator.swagger.io', '')
        .replace(/ https:/g, '')
        .replace(/frame-ancestors 'self'/, "frame-ancestors 'none'")
        .replace(/style-src 'self'/, `style-src 'self' ${SPRITE_STYLE}`)
        .replace(/\s*upgrade-insecure-requests;?/, '')} form-action 'self'; connect-src 'self';`,
    // The page reads `<prefix>/docs/json`: the document as OpenAPI 3.0, made once (see openapi-30.ts).
    transformSpecificationClone: false,
    transformSpecification: (document) => {
      let rendition = renditions.get(document);
      if (!rendition) renditions.set(document, (rendition = asOpenApi30(document)));
      return rendition as typeof document;
    },
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
      // Tags start closed, with a filter box over them: the first render draws a score of tags instead
      // of every operation (a deep link opens its own).
      docExpansion: 'none',
      filter: true,
      defaultModelsExpandDepth: 0,
      displayRequestDuration: true,
      // Written into Swagger UI's initializer file by its source text: it may name only page globals.
      requestInterceptor: (request) =>
        (globalThis as unknown as { apiDocsRequest(r: typeof request): typeof request }).apiDocsRequest(
          request,
        ),
    },
  };
}
