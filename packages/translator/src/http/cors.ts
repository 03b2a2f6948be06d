import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ProjectsService } from '../projects/projects-service.ts';
import { isPageRoute } from './page-access.ts';

/**
 * CORS for `/api/*`. The page routes (what a page key may call) answer browsers from allowed origins
 * only: a preflight, which carries no key, allows the origin when some project allows it, and the answer
 * itself when the caller's project does (see page-access.ts); `Vary: Origin` on both. Every other route
 * is for API clients holding the full key in a header, so any origin may call it; a dashboard session
 * works from the dashboard's own origin only (`*` allows no credentials, and X-CSRF-Token is not an
 * allowed header).
 * Preflights are answered here, before routing.
 */
export function installCors(app: FastifyInstance, projects: ProjectsService) {
  // Callback style: no promise per request on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/api')) return done();
    reply.header('access-control-expose-headers', 'etag, x-request-id, retry-after, content-disposition');
    const requested = request.headers['access-control-request-method'];
    const preflight = request.method === 'OPTIONS' && Boolean(requested);
    const method = preflight ? String(requested).toUpperCase() : request.method;
    if (!isPageRoute(method, request.url.split('?')[0])) {
      reply.header('access-control-allow-origin', '*');
      if (preflight) answerPreflight(reply);
      else done();
      return;
    }
    reply.header('vary', 'origin');
    if (!preflight) return done();
    const { origin } = request.headers;
    projects.originAllowedAnywhere(origin).then((allowed) => {
      if (allowed) reply.header('access-control-allow-origin', origin);
      answerPreflight(reply);
    }, done);
  });
}

function answerPreflight(reply: FastifyReply) {
  reply
    .code(204)
    .header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
    .header('access-control-allow-headers', 'content-type, x-api-key, x-edit-token, if-none-match')
    .header('access-control-max-age', '600')
    .send();
}
