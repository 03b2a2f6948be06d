import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized, type AppError } from '@app/server-kit';
import type { ProjectRef, ProjectsService } from '../projects/projects-service.ts';
import { originAllowed } from '../projects/origins.ts';
import type { PageKeyLimiter } from './page-limits.ts';
import { fail } from '../errors/catalogue.ts';

/**
 * The routes a publishable page key may call: the page client's own calls — register the phrases of a
 * page, read approved translations, and the two start-up reads (languages, crawler configuration).
 */
const PAGE_ROUTES = new Set([
  'POST /api/textnodes',
  'GET /api/translations',
  'GET /api/languages',
  'GET /api/project/crawler-config',
]);

export function isPageRoute(method: string, path: string | undefined): boolean {
  return PAGE_ROUTES.has(`${method === 'HEAD' ? 'GET' : method} ${path}`);
}

export const pageKeyNotAllowed = () =>
  fail(
    'page_key_not_allowed',
    'A page key (tpk_…) can only register phrases and read translations, as the page client does; ' +
      'use the project’s full API key for this.',
  );

const originOf = (request: FastifyRequest) => request.headers.origin;

/** A page route answered to a browser: the caller's origin may read it when the project allows it. */
export function allowPageOrigin(request: FastifyRequest, reply: FastifyReply, project: ProjectRef) {
  const origin = originOf(request);
  if (
    originAllowed(project.settings.allowedOrigins, origin) &&
    isPageRoute(request.method, request.routeOptions.url)
  )
    reply.header('access-control-allow-origin', origin);
}

/**
 * A page-key request: the key must be known, the `Origin` one of the project's allowed origins, and the
 * caller's address within the page-key limits. Returns the refusal, or undefined once admitted.
 */
export function admitPageKey(
  request: FastifyRequest,
  reply: FastifyReply,
  project: ProjectRef | undefined,
  limiter: PageKeyLimiter,
): AppError | undefined {
  if (!project)
    return unauthorized(
      'The page key is not valid (it may have been regenerated): copy the current snippet from the ' +
        'dashboard’s Install page.',
    );
  const origin = originOf(request);
  if (!originAllowed(project.settings.allowedOrigins, origin)) {
    const what = origin ? `${origin} is not one of them` : 'this request has no Origin header';
    return fail(
      'origin_not_allowed',
      `This page key only works from the project’s allowed origins, and ${what}: add the page’s origin ` +
        'in the translator dashboard under Settings → Allowed origins.',
    );
  }
  const retryAfter = limiter.take(project.id, request.ip, request.method === 'POST' ? 'write' : 'read');
  if (retryAfter !== undefined)
    return fail(
      'rate_limited',
      `Too many page requests from your address for this project; try again in ${retryAfter} seconds.`,
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  request.project = project;
  request.viaPageKey = true;
  reply.header('access-control-allow-origin', origin);
  return undefined;
}

/**
 * The full key sent from a web page (an `Origin` other than the dashboard's own): remembered for the
 * dashboard's warning, since a key in a page is a key anyone can read. A promise while that is written
 * (rarely: repeats are not written again for a while), undefined otherwise.
 */
export function noteFullKeyUse(
  request: FastifyRequest,
  project: ProjectRef,
  projects: ProjectsService,
): Promise<void> | undefined {
  const origin = originOf(request);
  if (!origin) return undefined;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (host === request.host) return undefined;
  return projects.recordFullKeyUse(project.id, origin)?.then(
    () => undefined,
    (error: unknown) => request.log.warn({ err: error }, 'could not record the full key’s use'),
  );
}
