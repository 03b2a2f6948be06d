import type { RouteOptions } from 'fastify';
import type { ErrorCodes, SecurityRequirement, SecurityScheme } from '@app/server-kit';
import { isPageRoute } from './page-access.ts';
import { errorsOf } from '../errors/catalogue.ts';
import { isEditRoute } from './session-auth.ts';
import { SESSION_COOKIE } from '../accounts/sessions.ts';

/** The project-key hook runs on the API's routes but the public ones and those that take no key. */
const takesKey = (route: RouteOptions) =>
  route.url.startsWith('/api/') && !route.config?.public && route.config?.auth !== 'none';

/**
 * The errors the project-key hook implies, for a route's entry in the OpenAPI document: a route that
 * needs the key refuses a missing or unknown one (401); the page key is refused outside the page
 * routes (403 page_key_not_allowed) and, on them, from an origin the project does not allow. A signed-in
 * member must name a project of theirs, carry the CSRF token on writes, and hold a role that allows it;
 * an edit token (on the editing routes) must come from its page origin, still an allowed one.
 */
export function routeErrors(route: RouteOptions): ErrorCodes | undefined {
  if (!takesKey(route)) return undefined;
  const page = [route.method].flat().some((method) => isPageRoute(method, route.url));
  const methods = [route.method].flat();
  const editing = methods.some((method) => isEditRoute(method, route.url));
  return errorsOf(
    'unauthorized',
    page ? 'origin_not_allowed' : 'page_key_not_allowed',
    ...(editing ? (['edit_token_origin', 'origin_not_allowed'] as const) : []),
    'project_required',
    'not_a_member',
    'forbidden',
    ...(methods.every((method) => method === 'GET' || method === 'HEAD') ? [] : (['csrf_invalid'] as const)),
  );
}

export const SECURITY_SCHEMES: Record<string, SecurityScheme> = {
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'The project’s key (or its page key, on the page client’s routes).',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'Signed in to the dashboard; every write also sends X-CSRF-Token from GET /auth/session.',
  },
  projectId: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Project-Id',
    description: 'With the session: the id of a project the account is a member of.',
  },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for a scraper.' },
};

const KEY_OR_SESSION: SecurityRequirement[] = [{ apiKey: [] }, { session: [], projectId: [] }];

/** The credentials a route takes, for its entry in the OpenAPI document: the key, or a member's session. */
export function routeSecurity(route: RouteOptions): SecurityRequirement[] | undefined {
  if (!takesKey(route)) return undefined;
  return route.config?.auth === 'optional' ? [{}, ...KEY_OR_SESSION] : KEY_OR_SESSION;
}
