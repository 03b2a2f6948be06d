import type { FastifyInstance } from 'fastify';

/**
 * The page client calls the API from customers' own origins with the key in a header (no cookies), so
 * any origin may call `/api/*`; preflights are answered here, before routing.
 */
export function installCors(app: FastifyInstance) {
  // Callback style: no promise per request on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/api')) return done();
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'etag, x-request-id, retry-after, content-disposition');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      reply
        .code(204)
        .header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
        .header('access-control-allow-headers', 'content-type, x-api-key, if-none-match')
        .header('access-control-max-age', '600')
        .send();
      return;
    }
    done();
  });
}
