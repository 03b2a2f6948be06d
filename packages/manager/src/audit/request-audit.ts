import { randomUUID } from 'node:crypto';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  RouteOptions,
} from 'fastify';
import type { Principal } from '../auth/principal.ts';
import type { AuditLog, AuditScope } from './audit-log.ts';
import type { AuditActor, AuditTarget } from './audit-entry.ts';
import { SYSTEM_ACTOR } from './audit-entry.ts';
import { detailsOf, rowIdOf } from './audit-details.ts';

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

/** What every request of one audited route shares, worked out once when the route is registered. */
interface AuditedRoute {
  url: string;
  action: string;
  failedAction: string;
  successStatus: number | null;
}

type Hook = (...args: never[]) => unknown;

/**
 * Opens an audit entry for every state-changing API request — and every route with `config.audit` —
 * and closes it once answered (see AuditLog for how it is written). The hooks go on the audited routes
 * alone (other requests pay nothing), ahead of the route's own guards, so a refusal is recorded too;
 * a credential refused before them still gets its failure entry when answered.
 * The site agent's check-in and traffic report (routes taking an agent token) are left out: each agent
 * posts them every few seconds, they change only the agent's own status rows, and they would bury every
 * other entry.
 */
export function installRequestAudit(api: FastifyInstance, audit: AuditLog, prefix: string): void {
  const scopes = new WeakMap<FastifyRequest, AuditScope>();
  const errorCodes = new WeakMap<FastifyRequest, string>();

  const hooksOf = (route: AuditedRoute) => ({
    onRequest(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
      const scope = openScope(request, route);
      scopes.set(request, scope);
      audit.run(scope, done);
    },
    preHandler(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
      complete(scopes.get(request)!, request, route);
      done();
    },
    onSend(
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (e: null, p: unknown) => void,
    ) {
      if (reply.statusCode >= 400 && typeof payload === 'string') {
        const code = errorCodeOf(payload);
        if (code) errorCodes.set(request, code);
      }
      done(null, payload);
    },
    onResponse(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
      const scope = scopes.get(request) ?? openScope(request, route);
      complete(scope, request, route);
      audit
        .finish(scope, reply.statusCode, errorCodes.get(request) ?? null)
        .catch((error: unknown) => request.log.error({ err: error }, 'the audit entry could not be written'));
      done();
    },
  });

  api.addHook('onRoute', (options) => {
    const route = auditedRoute(options, prefix);
    if (!route) return;
    const hooks = hooksOf(route);
    const target = options as unknown as Record<string, Hook | Hook[] | undefined>;
    for (const name of ['onRequest', 'preHandler', 'onSend', 'onResponse'] as const) {
      const own = target[name] === undefined ? [] : [target[name]].flat();
      // Ours first: the route's guards (requireAdmin) run inside the request's audit context.
      target[name] = [hooks[name] as Hook, ...own];
    }
  });
}

function auditedRoute(options: RouteOptions, prefix: string): AuditedRoute | undefined {
  const config = (options.config ?? {}) as FastifyContextConfig;
  const method = [options.method].flat()[0] ?? '';
  if (config.agentToken || method === 'HEAD') return undefined;
  if (!config.audit && !WRITES.has(method)) return undefined;
  const action = config.audit?.action ?? actionOf(method, options.url.slice(prefix.length));
  return {
    url: options.url,
    action,
    failedAction: config.audit?.failedAction ?? action,
    successStatus: successStatusOf(options.schema?.response),
  };
}

function openScope(request: FastifyRequest, route: AuditedRoute): AuditScope {
  return {
    requestId: randomUUID(),
    action: route.action,
    failedAction: route.failedAction,
    actor: null,
    sourceAddress: request.ip,
    target: {},
    details: null,
    successStatus: route.successStatus,
    written: false,
    failure: null,
  };
}

/** What is known once the caller is identified and the body parsed (again at the end, for early refusals). */
function complete(scope: AuditScope, request: FastifyRequest, route: AuditedRoute) {
  scope.actor ??= actorOf(request.principal);
  scope.details ??= detailsOf(request.body);
  if (!scope.target.type) scope.target = { ...targetOf(route.url, request.params), ...scope.target };
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
    if (word === 'site') target.siteId = rowIdOf(value);
    if (word === 'container') target.containerId = rowIdOf(value);
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

/** The route's success status when its response schema names exactly one (201 for a create). */
function successStatusOf(response: unknown): number | null {
  const statuses = Object.keys(response ?? {}).filter((status) => /^2\d\d$/.test(status));
  return statuses.length === 1 ? Number(statuses[0]) : null;
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
