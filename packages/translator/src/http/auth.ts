import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '@app/server-kit';
import type { ProjectRef, ProjectsService } from '../projects/projects-service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `none`: no key needed; `optional`: a key is used when sent (and must then be valid). Default: required. */
    auth?: 'none' | 'optional';
  }
  interface FastifyRequest {
    /** The project of the X-API-Key header; set on every route that needs a key. */
    project?: ProjectRef;
  }
}

export const API_KEY_HEADER = 'x-api-key';

/**
 * Finds the project of the `X-API-Key` header before the body is read: no key or an unknown key
 * (including one replaced by regenerate) is 401, whatever the route.
 */
export function installProjectAuth(app: FastifyInstance, projects: ProjectsService) {
  app.decorateRequest('project', undefined);
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.auth;
    if (mode === 'none') return;
    const header = request.headers[API_KEY_HEADER];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) {
      if (mode === 'optional') return;
      throw unauthorized('Send the project API key in the X-API-Key header.');
    }
    const project = await projects.authenticate(key.trim());
    if (!project) throw unauthorized('The API key is not valid (it may have been regenerated).');
    request.project = project;
  });
}

/** The authenticated project of a request on a key-protected route. */
export function projectOf(request: FastifyRequest): ProjectRef {
  if (!request.project) throw unauthorized('Send the project API key in the X-API-Key header.');
  return request.project;
}
