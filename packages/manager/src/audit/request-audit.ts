import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import type { AuditLog, AuditScope } from './audit-log.ts';
import type { AuditActor, AuditTarget } from './audit-entry.ts';
import { SYSTEM_ACTOR } from './audit-entry.ts';
import { redact } from './redact.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's audit-log action when the one read from its method and path does not say it
     * (`auth.sign_in` for POST /auth/login); a GET route with one is audited too (the OIDC callback).
     */
    audit?: { action: string; failedAction?: string };
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Path parameters that name a target; others (a reset or invitation token) never reach the log. */
const TARGET_PARAM = /^(id|\w+Id|uidNumber|gidNumber|username)$/;
const VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/**
 * Opens an audit entry for every state-changing API request — and every route with `config.audit` —
 * and closes it once answered (see AuditLog for how it is written). The site agent's check-in and
 * traffic report (routes taking an agent token) are left out: each agent posts them every few seconds,
 * they change only the agent's own status rows, and they would bury every other entry.
 * Registered before the request's caller is known: a refused credential still leaves a failure entry.
 */
export function installRequestAudit(api: FastifyInstance, audit: AuditLog, prefix: string): void {
  const scopes = new WeakMap<FastifyRequest, AuditScope>();
  const errorCodes = new WeakMap<FastifyRequest, string>();

  api.addHook('onRequest', (request, _reply, done) => {
    const scope = openScope(request, prefix);
    if (!scope) return done();
    scopes.set(request, scope);
    audit.run(scope, done);
  });
  api.addHook('preHandler', (request, _reply, done) => {
    const scope = scopes.get(request);
    if (scope) complete(scope, request);
    done();
  });
  api.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string' && scopes.has(request)) {
      const code = errorCodeOf(payload);
      if (code) errorCodes.set(request, code);
    }
    done(null, payload);
  });
  api.addHook('onResponse', (request, reply, done) => {
    const scope = scopes.get(request);
    if (!scope) return done();
    complete(scope, request);
    audit
      .finish(scope, reply.statusCode, errorCodes.get(request) ?? null)
      .catch((error: unknown) => request.log.error({ err: error }, 'the audit entry could not be written'));
    done();
  });
}

function openScope(request: FastifyRequest, prefix: string): AuditScope | undefined {
  const config = request.routeOptions.config;
  const url = request.routeOptions.url;
  if (!url || config.agentToken) return undefined;
  if (!config.audit && !WRITES.has(request.method)) return undefined;
  const action = config.audit?.action ?? actionOf(request.method, url.slice(prefix.length));
  return {
    requestId: randomUUID(),
    action,
    failedAction: config.audit?.failedAction ?? action,
    actor: null,
    sourceAddress: request.ip,
    target: {},
    details: null,
    written: false,
    failure: null,
  };
}

/** What is known once the caller is identified and the body parsed (again at the end, for early refusals). */
function complete(scope: AuditScope, request: FastifyRequest) {
  scope.actor ??= actorOf(request.principal);
  if (!scope.details && request.body && typeof request.body === 'object')
    scope.details = redact(request.body) as Record<string, unknown>;
  const url = request.routeOptions.url;
  if (url && !scope.target.type) scope.target = { ...targetOf(url, request.params), ...scope.target };
}

export function actorOf(principal: Principal | null): AuditActor {
  if (!principal) return SYSTEM_ACTOR;
  return { uidNumber: principal.uidNumber, uid: principal.uid, apiKeyId: principal.apiKeyId ?? null };
}

/**
 * `<resource>[.<sub-resource>].<verb>` from the route's path: `PATCH /sites/:siteId/containers/:id` is
 * `container.update`, `POST /sites/:siteId/containers/:id/retry` is `container.retry`, `DELETE
 * …/collaborators/:username` is `container.collaborator.delete`. Routes under a site are named by
 * what they hold (the site is the entry's site id).
 */
export function actionOf(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  if (segments[0] === 'sites' && segments.length > 2) segments.splice(0, 2);
  const words = segments.filter((segment) => !segment.startsWith(':'));
  const nouns = words.map(singular);
  const last = segments[segments.length - 1] ?? '';
  const endsInAction = method === 'POST' && !last.startsWith(':') && singular(last) === snake(last);
  return endsInAction ? nouns.join('.') : [...nouns, VERBS[method] ?? method.toLowerCase()].join('.');
}

/** The entry's target from the path's parameters: the last named one, and the site and container ids. */
function targetOf(url: string, params: unknown): AuditTarget {
  const values = (params ?? {}) as Record<string, string | number>;
  const segments = url.split('/').filter(Boolean);
  const target: AuditTarget = {};
  segments.forEach((segment, index) => {
    const name = segment.slice(1);
    if (!segment.startsWith(':') || !TARGET_PARAM.test(name)) return;
    const word = singular(segments[index - 1] ?? '');
    const value = values[name];
    if (value === undefined) return;
    if (word === 'site') target.siteId = Number(value);
    if (word === 'container') target.containerId = Number(value);
    target.type = word;
    target.id = value;
  });
  if (!target.type) {
    const words = segments.filter(
      (segment) => !segment.startsWith(':') && segment !== 'api' && segment !== 'v1',
    );
    target.type = singular(words[0] ?? '');
  }
  return target;
}

function snake(word: string): string {
  return word.replace(/-/g, '_');
}

/** Resources named in the plural that are one thing (the settings). */
const UNCOUNTED = new Set(['settings']);

function singular(word: string): string {
  const name = snake(word);
  return name.endsWith('s') && !name.endsWith('ss') && !UNCOUNTED.has(name) ? name.slice(0, -1) : name;
}

function errorCodeOf(payload: string): string | undefined {
  try {
    const code = (JSON.parse(payload) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
