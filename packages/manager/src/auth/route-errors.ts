import type { RouteOptions } from 'fastify';
import type { ErrorCodes } from '@app/server-kit';
import { errorsOf } from '../errors/catalogue.ts';

const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * The errors the API's credential hook and a route's guards imply, for its entry in the OpenAPI
 * document: any API route refuses an invalid key (401), a session write without its CSRF token (403
 * csrf_invalid); what a guard refuses it names itself (guardWithErrors).
 */
export function routeErrors(prefix: string) {
  return (route: RouteOptions): ErrorCodes | undefined => {
    if (!route.url.startsWith(`${prefix}/`) || route.config?.public) return undefined;
    const methods = [route.method].flat();
    const writes = methods.some((method) => !SAFE_METHODS.includes(method));
    return writes ? errorsOf('unauthorized', 'csrf_invalid') : errorsOf('unauthorized');
  };
}
