import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DASHBOARD_HEADERS, packageDir } from '@app/server-kit';

/** The built single-page client: packages/manager-web/dist next to this package. */
export const defaultWebRoot = () => resolve(packageDir(import.meta.url), '../manager-web/dist');

export interface WebClientOptions {
  /** Folder holding index.html and assets/ (the Vite build output). */
  root?: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the web client at `/`: content-hashed files under /assets/ with a year-long immutable cache,
 * other files with a short one, and index.html (never cached) for every other GET that accepts HTML,
 * so deep links survive a reload. `/api/*` is never answered here: its 404s stay JSON. Without a
 * build, the manager runs API-only and says how to build the client.
 */
export async function webClient(app: FastifyInstance, options: WebClientOptions = {}) {
  const root = options.root ?? defaultWebRoot();
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn(
      `web client not built (${root} has no index.html): serving the API only; run \`npm run build -w packages/manager-web\``,
    );
    return;
  }
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build writes .br and .gz beside each file (web-kit/build/precompress.mjs).
      preCompressed: true,
      setHeaders(reply, path) {
        const inAssets = path.startsWith(join(root, 'assets'));
        const html = path.endsWith('.html');
        reply.header('cache-control', inAssets ? IMMUTABLE : html ? 'no-cache' : 'public, max-age=3600');
      },
    });

    const spa = async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '/';
      // The root is always the client; deeper paths only for requests that accept HTML (browsers).
      const wantsHtml = path === '/' || (request.headers.accept ?? '').includes('text/html');
      if (path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/') || !wantsHtml) {
        return reply.callNotFound();
      }
      return reply.headers(DASHBOARD_HEADERS).sendFile('index.html', { cacheControl: false });
    };
    scope.get('/', { schema: { hide: true } }, spa);
    scope.get('/*', { schema: { hide: true } }, spa);
  });
}
