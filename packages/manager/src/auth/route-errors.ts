import type { RouteOptions } from 'fastify';
import type { ErrorCodes } from '@app/server-kit';
import { requireAdmin } from './request-auth.ts';

const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * The errors the API's credential hook and a route's guards imply, for its entry in the OpenAPI
 * document: any API route refuses an invalid key (401), a session write without its CSRF token (403
 * csrf_invalid), and an administrators' route everyone else (403 forbidden).
 */
export function routeErrors(prefix: string) {
  return (route: RouteOptions): ErrorCodes | undefined => {
    if (!route.url.startsWith(`${prefix}/`) || route.config?.public) return undefined;
    const methods = [route.method].flat();
    const guards = [route.onRequest, route.preHandler].flat();
    return {
      401: ['unauthorized'],
      403: [
        ...(guards.includes(requireAdmin) ? ['forbidden'] : []),
        ...(methods.some((method) => !SAFE_METHODS.includes(method)) ? ['csrf_invalid'] : []),
      ],
    };
  };
}
