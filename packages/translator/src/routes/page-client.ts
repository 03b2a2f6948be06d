import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientBundle } from '@app/page-client';
import { EncodedBody, sendEncoded } from '@app/server-kit';

/**
 * The page client script: `/client.js` (a stable URL pages can embed, cached for minutes) and
 * `/client.<hash>.js` (content-addressed, cached for a year); `/client-editor.js`, the in-page editor it
 * loads on a page opened to edit. Any origin may load them.
 */
export async function pageClientRoutes(app: FastifyInstance) {
  const { code, hash, editor } = await clientBundle();
  const script = (source: string) => {
    const body = new EncodedBody(source);
    return (cacheControl: string) => (request: FastifyRequest, reply: FastifyReply) =>
      sendEncoded(
        request,
        reply
          .header('content-type', 'text/javascript; charset=utf-8')
          .header('cache-control', cacheControl)
          .header('access-control-allow-origin', '*'),
        body,
      );
  };
  const send = script(code);
  app.get('/client.js', { schema: { hide: true } }, send('public, max-age=300'));
  app.get(`/client.${hash}.js`, { schema: { hide: true } }, send('public, max-age=31536000, immutable'));
  app.get('/client-editor.js', { schema: { hide: true } }, script(editor)('public, max-age=300'));
  app.get('/client-version', { schema: { hide: true } }, async () => ({ url: `/client.${hash}.js`, hash }));
}
