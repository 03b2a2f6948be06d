import type { RouteOptions } from 'fastify';
import type { ErrorCodes, SecurityRequirement, SecurityScheme } from '@app/server-kit';
import { errorsOf } from '../errors/catalogue.ts';
import { SESSION_COOKIE } from './sessions.ts';

const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * The errors the API's credential hook and a route's guards imply, for its entry in the OpenAPI
 * document: any API route refuses an invalid key (401), a session write without its CSRF token (403
 * csrf_invalid); what a guard refuses it names itself (guardWithErrors).
 */
export function routeErrors(prefix: string) {
  return (route: RouteOptions): ErrorCodes | undefined => {
    if (!checksCredentials(prefix, route)) return undefined;
    const methods = [route.method].flat();
    const writes = methods.some((method) => !SAFE_METHODS.includes(method));
    return writes ? errorsOf('unauthorized', 'csrf_invalid') : errorsOf('unauthorized');
  };
}

/** The API's credential hook runs on every route under the prefix but the public ones (probes, documents). */
const checksCredentials = (prefix: string, route: RouteOptions) =>
  route.url.startsWith(`${prefix}/`) && !route.config?.public;

export const SECURITY_SCHEMES: Record<string, SecurityScheme> = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'Signed in to the web client; every write also sends X-CSRF-Token from GET /csrf-token.',
  },
  bearer: { type: 'http', scheme: 'bearer', description: 'An API key: Authorization: Bearer <API_KEY>.' },
};

/** The credentials a route takes, for its entry in the OpenAPI document: a session or an API key. */
export function routeSecurity(prefix: string) {
  return (route: RouteOptions): SecurityRequirement[] | undefined =>
    checksCredentials(prefix, route) ? [{ session: [] }, { bearer: [] }] : undefined;
}
