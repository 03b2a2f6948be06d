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
  // Callback style, so a cached key costs no promise and no closure: this hook runs on the delivery hot path.
  app.addHook('onRequest', (request, _reply, done) => {
    const mode = request.routeOptions.config?.auth;
    if (mode === 'none') return done();
    const header = request.headers[API_KEY_HEADER];
    const key = (Array.isArray(header) ? header[0] : header)?.trim();
    if (!key) {
      if (mode === 'optional') return done();
      return done(unauthorized('Send the project API key in the X-API-Key header.'));
    }
    const cached = projects.cachedKey(key);
    if (cached) return accept(request, cached, done);
    projects.authenticate(key).then((project) => accept(request, project, done), done);
  });
}

function accept(request: FastifyRequest, project: ProjectRef | undefined, done: (error?: Error) => void) {
  if (!project) return done(unauthorized('The API key is not valid (it may have been regenerated).'));
  request.project = project;
  done();
}

/** The authenticated project of a request on a key-protected route. */
export function projectOf(request: FastifyRequest): ProjectRef {
  if (!request.project) throw unauthorized('Send the project API key in the X-API-Key header.');
  return request.project;
}
