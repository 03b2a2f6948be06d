import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, safeEqual, unauthorized, type AppError } from '@app/server-kit';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { AccountsService } from '../accounts/accounts-service.ts';
import { SESSION_COOKIE, SESSION_TTL_MS, type AccountSession } from '../accounts/sessions.ts';
import {
  describeRole,
  grants,
  isLanguageScoped,
  languagesOutside,
  type Access,
  type Membership,
} from '../accounts/roles.ts';
import { fail } from '../errors/catalogue.ts';
import { originAllowed } from '../projects/origins.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a signed-in member needs for this route (default: `read` for GET, `manage` otherwise). */
    access?: Access;
    /** The languages a request touches that its body, query and path do not name (rows by id). */
    langsOf?: (request: FastifyRequest) => Promise<string[]>;
  }
  interface FastifyRequest {
    /** The signed-in dashboard account (session cookie), when the request came with one. */
    account?: AccountSession;
    /** The account's role in request.project; absent for key holders, who may do everything. */
    member?: Membership;
    /** The account an edit token (in-page editing) speaks for. */
    editor?: { accountId: number; email: string };
  }
}

export const PROJECT_HEADER = 'x-project-id';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

/** The session of the request's cookie (looked up once per request), or undefined. */
export async function sessionOf(request: FastifyRequest, accounts: AccountsService) {
  if (request.account) return request.account;
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return undefined;
  request.account = await accounts.sessions.find(token);
  return request.account;
}

/** A session's write must carry its CSRF token (a cookie alone proves nothing: browsers send it anywhere). */
export function csrfRefusal(request: FastifyRequest, session: AccountSession): AppError | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const header = request.headers['x-csrf-token'];
  return typeof header === 'string' && safeEqual(header, session.csrfToken)
    ? undefined
    : fail('csrf_invalid');
}

/**
 * A project route called with a session instead of a key: the session must be valid, a write must carry
 * its CSRF token, and the account must be a member of the project named in X-Project-Id. Returns the
 * refusal, or undefined once request.project and request.member are set.
 */
export async function admitSession(
  request: FastifyRequest,
  accounts: AccountsService,
  projects: ProjectsService,
): Promise<AppError | undefined> {
  const session = await sessionOf(request, accounts);
  if (!session) return unauthorized('Your session has expired: sign in again.');
  const refusal = csrfRefusal(request, session);
  if (refusal) return refusal;
  const header = request.headers[PROJECT_HEADER];
  const projectId = typeof header === 'string' && /^[1-9]\d{0,9}$/.test(header) ? Number(header) : undefined;
  if (projectId === undefined) return fail('project_required');
  const member = await accounts.membership(projectId, session.accountId);
  const project = member && (await projects.ref(projectId));
  if (!member || !project) return fail('not_a_member');
  request.project = project;
  request.member = member;
  return undefined;
}

/** Languages a request names in its body, query or path (`lang`). */
function namedLanguages(request: FastifyRequest): string[] {
  const found: string[] = [];
  for (const part of [request.body, request.query, request.params]) {
    const lang = (part as { lang?: unknown } | undefined)?.lang;
    if (typeof lang === 'string') found.push(lang);
  }
  return found;
}

/**
 * Checks a member's role against the route's access, once the request is parsed: translators and
 * reviewers also only touch their languages.
 */
export function installAccessCheck(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    const member = request.member;
    if (!member) return;
    const config = request.routeOptions.config;
    const access = config.access ?? (SAFE_METHODS.has(request.method) ? 'read' : 'manage');
    if (!grants(member, access))
      throw forbidden(
        `Your role in this project (${describeRole(member)}) does not allow this; ask one of its owners.`,
      );
    if (!isLanguageScoped(member.role)) return;
    const langs = [...namedLanguages(request), ...((await config.langsOf?.(request)) ?? [])];
    const outside = [...new Set(languagesOutside(member, langs))];
    if (outside.length)
      throw forbidden(
        `You work on ${member.languages.join(', ') || 'no language'} in this project, not ${outside.join(', ')}.`,
      );
  });
}

/** The languages of `all` a request's caller works on: a translator's or reviewer's own, else all. */
export function visibleLanguages(request: FastifyRequest, all: string[]): string[] {
  const member = request.member;
  return member && isLanguageScoped(member.role)
    ? all.filter((lang) => member.languages.includes(lang))
    : all;
}

/**
 * The items of `items` in languages the request's caller works on (items for every language, `lang`
 * null, included): a translator or reviewer reads their languages only, whatever the route.
 */
export function inVisibleLanguages<T extends { lang: string | null }>(
  request: FastifyRequest,
  items: T[],
): T[] {
  const member = request.member;
  if (!member || !isLanguageScoped(member.role)) return items;
  return items.filter((item) => item.lang === null || member.languages.includes(item.lang));
}

/** The languages a translator or reviewer works on; undefined for callers who see every language. */
export function languageScope(request: FastifyRequest): readonly string[] | undefined {
  const member = request.member;
  return member && isLanguageScoped(member.role) ? member.languages : undefined;
}

/** The project's settings with only the languages the request's caller works on. */
export const visibleSettings = <S extends { languages: string[] }>(
  request: FastifyRequest,
  settings: S,
): S => ({
  ...settings,
  languages: visibleLanguages(request, settings.languages),
});

/** What in-page editing calls: read a page's rows, save translations, mark them reviewed. */
const EDIT_ROUTES = new Set([
  'GET /api/translations/all',
  'POST /api/translations',
  'PATCH /api/translations/state',
]);

export const isEditRoute = (method: string, url: string | undefined) =>
  EDIT_ROUTES.has(`${method === 'HEAD' ? 'GET' : method} ${url}`);

/**
 * A request with an edit token (in-page editing): only the editing routes, only from the page origin the
 * token was made for (while the project still allows it), with the role the account holds now in the
 * token's project. Returns the refusal, or undefined once request.project, request.member and
 * request.editor are set.
 */
export async function admitEditToken(
  request: FastifyRequest,
  token: string,
  accounts: AccountsService,
  projects: ProjectsService,
): Promise<AppError | undefined> {
  if (!isEditRoute(request.method, request.routeOptions.url))
    return forbidden('An edit token only reads, saves and reviews translations on the page.');
  const editor = await accounts.editor(token);
  if (!editor) return unauthorized('The edit token has expired: open the page again from the dashboard.');
  const project = editor.member && (await projects.ref(editor.projectId));
  if (!editor.member || !project) return fail('not_a_member');
  if (request.headers.origin !== editor.origin)
    return fail(
      'edit_token_origin',
      `This edit token works only on pages of ${editor.origin}: open the page for editing again from the dashboard.`,
    );
  if (!originAllowed(project.settings.allowedOrigins, editor.origin))
    return fail(
      'origin_not_allowed',
      `${editor.origin} is no longer one of the project’s allowed origins: its pages cannot be edited.`,
    );
  request.project = project;
  request.member = editor.member;
  request.editor = { accountId: editor.accountId, email: editor.email };
  return undefined;
}
