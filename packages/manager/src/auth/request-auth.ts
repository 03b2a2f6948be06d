import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, guardWithErrors, safeEqual, unauthorized } from '@app/server-kit';
import type { ApiKeyService } from './api-keys.ts';
import type { Principal } from './principal.ts';
import { SESSION_COOKIE, type Session, type SessionStore } from './sessions.ts';
import { isPreSessionCookie, type PreSession, type PreSessions } from './pre-sessions.ts';
import type { UsersRepository } from '../users/users-repository.ts';
import { isAgentTokenSecret } from '../site-config/agent-tokens.ts';
import { fail, errorsOf } from '../errors/catalogue.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    session: Session | null;
    /** The cookie-held state of a browser that has not signed in (see PreSessions). */
    preSession: PreSession | null;
  }
  interface FastifyContextConfig {
    /** The route resolves agent tokens itself (the site agent's check-in and traffic report). */
    agentToken?: boolean;
    /** The route also admits `Bearer $METRICS_TOKEN` (a scraper, not a user). */
    metricsToken?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RequestAuthDeps {
  sessions: SessionStore;
  preSessions: PreSessions;
  apiKeys: ApiKeyService;
  users: UsersRepository;
  secureCookies: boolean;
  metricsToken?: string | undefined;
}

/**
 * Resolves the caller of every API request — a Bearer API key, else the session cookie — and enforces
 * the CSRF token on session-authenticated writes, before validation, so a forged request learns nothing.
 */
export function installRequestAuth(app: FastifyInstance, deps: RequestAuthDeps) {
  app.decorateRequest('principal', null);
  app.decorateRequest('session', null);
  app.decorateRequest('preSession', null);

  // Callback style, and synchronous when it can be (no credential, a recently seen API key): it runs on
  // every API request, and an async hook costs a promise each time.
  app.addHook('onRequest', (request, _reply, done) => {
    let pending: Promise<void> | undefined;
    try {
      pending = identify(request, deps);
    } catch (error) {
      return done(error as Error);
    }
    if (!pending) return done();
    pending.then(() => done(), done);
  });
}

/** Sets the request's caller; a promise only when the database must be asked. */
function identify(request: FastifyRequest, deps: RequestAuthDeps): Promise<void> | undefined {
  const secret = bearerSecret(request);
  if (secret !== undefined) return identifyBearer(request, secret, deps);
  // Parsed here, not by a cookie hook of its own (see app.ts): most API calls carry no cookie.
  const cookies = request.headers.cookie;
  const token = cookies ? request.server.parseCookie(cookies)[SESSION_COOKIE] : undefined;
  if (!token) return undefined;
  if (isPreSessionCookie(token)) {
    request.preSession = deps.preSessions.open(token) ?? null;
    return undefined;
  }
  return identifySession(request, token, deps);
}

function identifyBearer(request: FastifyRequest, secret: string, deps: RequestAuthDeps) {
  // An agent token is no user credential: the agent routes resolve it, every other route refuses it.
  if (isAgentTokenSecret(secret)) {
    if (request.routeOptions.config?.agentToken) return undefined;
    throw unauthorized('An agent token is good only for the site agent check-in and traffic report.');
  }
  const { metricsToken } = deps;
  if (metricsToken && request.routeOptions.config?.metricsToken && safeEqual(secret, metricsToken))
    return undefined;
  const cached = deps.apiKeys.cached(secret);
  if (cached) {
    request.principal = cached;
    return undefined;
  }
  return deps.apiKeys.authenticate(secret).then((principal) => {
    if (!principal) throw unauthorized('The API key is invalid or has been deleted.');
    request.principal = principal;
  });
}

async function identifySession(request: FastifyRequest, token: string, deps: RequestAuthDeps) {
  const session = await deps.sessions.find(token);
  if (!session) return;
  request.session = session;
  request.principal = (await sessionPrincipal(session, deps.users)) ?? null;
  if (request.principal) await deps.sessions.extend(session);
  // Every session write, the agent routes' included: only credential-less local callers, Bearer
  // API keys and agent tokens (neither carries a cookie a browser would send by itself) skip it.
  if (request.principal && !SAFE_METHODS.has(request.method)) {
    const header = request.headers['x-csrf-token'];
    if (typeof header !== 'string' || !safeEqual(header, session.csrfToken)) {
      throw fail(
        'csrf_invalid',
        'Missing or invalid X-CSRF-Token header. Fetch one from GET /api/v1/csrf-token.',
      );
    }
  }
}

/** The active user a signed-in session belongs to, if any. */
export async function sessionPrincipal(
  session: Session,
  users: Pick<UsersRepository, 'activePrincipal'>,
): Promise<Principal | undefined> {
  if (session.uidNumber === null) return undefined;
  const row = await users.activePrincipal(session.uidNumber);
  if (!row) return undefined;
  return { uidNumber: row.uid_number, uid: row.uid, isAdmin: Boolean(row.is_admin), via: 'session' };
}

/** The secret of an `Authorization: Bearer …` header, if the request has one. */
export function bearerSecret(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  return authorization?.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : undefined;
}

/** Sets the session cookie to a session's token, or to a sealed pre-session. */
export function setSessionCookie(
  reply: FastifyReply,
  session: { token: string; expiresAt: number },
  secure: boolean,
) {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    expires: new Date(session.expiresAt),
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

/** Route guard: any signed-in caller (callback style: no promise per request). */
export function requireUser(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
  done(request.principal ? undefined : unauthorized());
}

/** Route guard: members of an administrative group only. */
export const requireAdmin = guardWithErrors(errorsOf('forbidden'), async (request: FastifyRequest) => {
  if (!request.principal) throw unauthorized();
  if (!request.principal.isAdmin) throw forbidden('Only administrators can do this.');
});

/** The caller of a guarded route. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
