import type { RouteOptions } from 'fastify';
import type { ErrorCodes } from '@app/server-kit';
import { isPageRoute } from './page-access.ts';
import { errorsOf } from '../errors/catalogue.ts';
import { isEditRoute } from './session-auth.ts';

/**
 * The errors the project-key hook implies, for a route's entry in the OpenAPI document: a route that
 * needs the key refuses a missing or unknown one (401); the page key is refused outside the page
 * routes (403 page_key_not_allowed) and, on them, from an origin the project does not allow. A signed-in
 * member must name a project of theirs, carry the CSRF token on writes, and hold a role that allows it;
 * an edit token (on the editing routes) must come from its page origin, still an allowed one.
 */
export function routeErrors(route: RouteOptions): ErrorCodes | undefined {
  if (!route.url.startsWith('/api/') || route.config?.public || route.config?.auth === 'none')
    return undefined;
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
