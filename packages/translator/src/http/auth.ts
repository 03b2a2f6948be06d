import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '@app/server-kit';
import type { ProjectRef, ProjectsService } from '../projects/projects-service.ts';
import { isPageKey } from '../projects/keys.ts';
import {
  admitPageKey,
  allowPageOrigin,
  isPageRoute,
  noteFullKeyUse,
  pageKeyNotAllowed,
} from './page-access.ts';
import type { PageKeyLimiter } from './page-limits.ts';
import type { AccountsService } from '../accounts/accounts-service.ts';
import { SESSION_COOKIE } from '../accounts/sessions.ts';
import { admitEditToken, admitSession } from './session-auth.ts';
import { EDIT_TOKEN_HEADER } from '../accounts/edit-tokens.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `none`: no key needed; `optional`: a key is used when sent (and must then be valid). Default: required. */
    auth?: 'none' | 'optional';
  }
  interface FastifyRequest {
    /** The project of the X-API-Key header; set on every route that needs a key. */
    project?: ProjectRef;
    /** The key was the project's publishable page key (see page-access.ts). */
    viaPageKey: boolean;
  }
}

export const API_KEY_HEADER = 'x-api-key';

/**
 * Finds the project of the `X-API-Key` header before the body is read: no key or an unknown key
 * (including one replaced by regenerate) is 401, whatever the route. The header holds the full key or
 * the page key; the page key is refused (403) outside the page routes before it is even looked up.
 * Without a key, a dashboard session cookie names the account, and X-Project-Id its project; or an
 * edit token (in-page editing) names both (see session-auth.ts).
 */
export function installProjectAuth(
  app: FastifyInstance,
  projects: ProjectsService,
  accounts: AccountsService,
  limiter: PageKeyLimiter,
) {
  app.decorateRequest('project', undefined);
  app.decorateRequest('viaPageKey', false);
  // Callback style, so a cached key costs no promise and no closure: this hook runs on the delivery hot path.
  app.addHook('onRequest', (request, reply, done) => {
    const mode = request.routeOptions.config?.auth;
    if (mode === 'none') return done();
    const header = request.headers[API_KEY_HEADER];
    const key = (Array.isArray(header) ? header[0] : header)?.trim();
    if (!key) {
      const editToken = request.headers[EDIT_TOKEN_HEADER];
      if (typeof editToken === 'string' && mode !== 'optional')
        return void admitEditToken(request, editToken.trim(), accounts, projects).then(done, done);
      if (request.cookies[SESSION_COOKIE])
        return void admitSession(request, accounts, projects).then(
          (refusal) => done(mode === 'optional' && refusal?.statusCode === 401 ? undefined : refusal),
          done,
        );
      if (mode === 'optional') return done();
      return done(unauthorized('Send the project API key in the X-API-Key header.'));
    }
    const page = isPageKey(key);
    if (page && !isPageRoute(request.method, request.routeOptions.url)) return done(pageKeyNotAllowed());
    const admit = (project: ProjectRef | undefined) => {
      if (page) return done(admitPageKey(request, reply, project, limiter));
      if (!project) return done(unauthorized('The API key is not valid (it may have been regenerated).'));
      request.project = project;
      allowPageOrigin(request, reply, project);
      const noting = noteFullKeyUse(request, project, projects);
      if (noting) noting.then(() => done(), done);
      else done();
    };
    const cached = projects.cachedKey(key);
    if (cached) return admit(cached);
    projects.authenticate(key).then(admit, done);
  });
}

/**
 * Who made a change, for the history: the signed-in account's e-mail address, or the project key, named
 * by a fingerprint (the first characters of its SHA-256) that tells one key from the next after a
 * regeneration and cannot be used to sign in.
 */
export function actorOf(request: FastifyRequest): string {
  const person = request.account ?? request.editor;
  if (person) return person.email;
  const header = request.headers[API_KEY_HEADER];
  const key = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  return `key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

/** The project of a request on a key-protected route. */
export function projectOf(request: FastifyRequest): ProjectRef {
  if (!request.project) throw unauthorized('Send the project API key in the X-API-Key header.');
  return request.project;
}
