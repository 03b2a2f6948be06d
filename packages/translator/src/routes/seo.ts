import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TranslatorServices } from '../services.ts';
import { sendCached } from '../http/cached-body.ts';
import type { LanguageAnswer, RenderedPage } from '../seo/rendered-pages.ts';
import { fail } from '../errors/catalogue.ts';
import { RowId } from '../common/schemas.ts';

/** The SEO routes' path parameters (exported for the fuzz run, which has no API document of them). */
export const SiteParams = Type.Object({ projectId: RowId });
export const LanguageParams = Type.Object({
  projectId: RowId,
  lang: Type.String({ maxLength: 35 }),
});
/** `/seo/<project>/<lang>` and what follows: the original page's path and query. */
const PAGE_PATH = /^\/seo\/[^/?#]+\/[^/?#]+(.*)$/s;

/**
 * A language page is the customer's site, its scripts included: a policy that blocked them would break
 * it. What it gets: no framing by other sites (clickjacking of the site's forms), no type sniffing, and
 * the browser's default referrer policy said out loud (other sites learn the origin, never the path and
 * query a visitor searched with).
 */
export const SEO_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** Query parameters that say where a visitor came from, never what the page shows. */
const TRACKING = /^(utm_[a-z_]+|gclid|fbclid|msclkid|mc_eid)$/i;

/** The path and query without tracking parameters: one page, one rendering and one cache entry. */
function withoutTracking(path: string): string {
  const start = path.indexOf('?');
  if (start < 0) return path;
  const query = new URLSearchParams(path.slice(start + 1));
  for (const name of [...query.keys()]) if (TRACKING.test(name)) query.delete(name);
  const rest = query.toString();
  return path.slice(0, start) + (rest ? `?${rest}` : '');
}

/** The request's Host, with its port (another port of a host is another origin, with the same cookies). */
const hostOf = (request: FastifyRequest) => request.host.toLowerCase();

/**
 * SEO mode's public pages (no key: search engines fetch them), reached through the site's own web
 * server (docs/operations.md has the nginx snippet): `/seo/:project/:lang/<path>` is the site's page at
 * `<path>` in that language, `/seo/:project/sitemap.xml` and `/seo/:project/:lang/sitemap.xml` list them.
 */
export function seoRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { seo, ownAddress } = services;
  /**
   * The site's HTML never runs on the translator's own origin (the dashboard's, whose session a page
   * there could use), whatever a project has stored as its public URL: asked there, no page is looked
   * up at all, cached or not.
   */
  const refuseOwnHost = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const host = hostOf(request);
    const own = ownAddress.isOwn(host, request.socket) || ownAddress.isOwn(host, request.socket, 443);
    done(own ? fail('wrong_host') : undefined);
  };
  const hidden = { hide: true };

  const sendPage = (request: FastifyRequest, reply: FastifyReply, page: RenderedPage, lang: string) => {
    reply
      .code(page.status)
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .header('content-language', lang)
      .headers(SEO_PAGE_HEADERS);
    return sendCached(request, reply, page, 'text/html; charset=utf-8');
  };
  const sendAnswer = (request: FastifyRequest, reply: FastifyReply, answer: LanguageAnswer, lang: string) =>
    answer.kind === 'page'
      ? sendPage(request, reply, answer.page, lang)
      : reply
          .code(answer.status)
          .header('cache-control', 'no-cache')
          .redirect(answer.location, answer.status);

  const sitemap = async (request: FastifyRequest, reply: FastifyReply, projectId: number, lang?: string) => {
    const xml = await seo.sitemap(projectId, hostOf(request), lang);
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-cache').send(xml);
  };

  api.get(
    '/seo/:projectId/sitemap.xml',
    { schema: { ...hidden, params: SiteParams }, onRequest: refuseOwnHost },
    (request, reply) => sitemap(request, reply, request.params.projectId),
  );
  api.get(
    '/seo/:projectId/:lang/sitemap.xml',
    { schema: { ...hidden, params: LanguageParams }, onRequest: refuseOwnHost },
    (request, reply) => sitemap(request, reply, request.params.projectId, request.params.lang),
  );

  const page = async (
    request: FastifyRequest<{ Params: { projectId: number; lang: string } }>,
    reply: FastifyReply,
  ) => {
    const { projectId, lang } = request.params;
    const rest = PAGE_PATH.exec(request.url)?.[1] ?? '';
    const path = withoutTracking(rest.startsWith('/') ? rest : `/${rest}`);
    const hit = seo.cached(projectId, lang, path);
    const host = hostOf(request);
    if (hit?.host === host) return sendPage(request, reply, hit, lang);
    return sendAnswer(request, reply, await seo.page(projectId, host, lang, path), lang);
  };
  api.get(
    '/seo/:projectId/:lang',
    { schema: { ...hidden, params: LanguageParams }, onRequest: refuseOwnHost },
    page,
  );
  api.get(
    '/seo/:projectId/:lang/*',
    { schema: { ...hidden, params: LanguageParams }, onRequest: refuseOwnHost },
    page,
  );
}
