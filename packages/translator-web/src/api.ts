/**
 * The translator's JSON API under `/api`: as a signed-in account (the session cookie, the project in
 * X-Project-Id and the session's CSRF token on writes), or with a project key in `X-API-Key`.
 */
import { ApiError as KitApiError, createClient, typedApi } from '@app/web-kit';
import type { AnswerOf, Method, PathOf, QueryOf as KitQueryOf } from '@app/web-kit';
import type { TranslatorErrorCode } from './error-codes.ts';
import type { paths } from './openapi.ts';

export const ApiError = KitApiError<TranslatorErrorCode>;
export type ApiError = KitApiError<TranslatorErrorCode>;

const KEY_STORAGE = 'translator.apiKey';

/** The key lives in sessionStorage: it survives reloads of this tab, not the closing of the browser. */
export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

export function storeKey(key: string | null) {
  try {
    if (key) sessionStorage.setItem(KEY_STORAGE, key);
    else sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    // storage disabled: the key lives only in memory for this page
  }
}

/** The signed-in account's project and CSRF token, when the dashboard runs on a session, not a key. */
let session: { projectId: number; csrfToken: string } | null = null;
export function setSessionHeaders(value: typeof session) {
  session = value;
}

/** The headers that say who calls: the key when one is given (or stored), else the session's. */
export function authHeaders(method = 'GET', key = storedKey()): Record<string, string> {
  if (key) return { 'x-api-key': key };
  if (!session) return {};
  return {
    'x-project-id': String(session.projectId),
    ...(method === 'GET' || method === 'HEAD' ? {} : { 'x-csrf-token': session.csrfToken }),
  };
}

/** Called when the server says the key (regenerated elsewhere) or the session (expired) is no longer valid. */
let onUnauthorized: (() => void) | null = null;
export function setUnauthorizedHandler(handler: (() => void) | null) {
  onUnauthorized = handler;
}

const client = createClient<TranslatorErrorCode>({
  base: '/api',
  unreachableMessage: 'The translator cannot be reached. Check your connection.',
  rateLimitedMessage: 'Too many failed requests: wait a minute and try again.',
  onErrorAnswer: (error, headers) => {
    const key = headers['x-api-key'];
    if (error.status === 401 && ((key && key === storedKey()) || (!key && headers['x-project-id'])))
      onUnauthorized?.();
  },
});

const request = <T>(method: string, path: string, body?: unknown, key = storedKey()): Promise<T> =>
  client.request<T>(method, path, body, authHeaders(method, key));

/** What an operation answers (undefined for 204 No Content). */
type ResponseOf<M extends Method, P extends PathOf<paths, M>> = AnswerOf<paths, M, P, 'body'>;

/** The query an operation takes. */
export type QueryOf<M extends Method, P extends PathOf<paths, M>> = KitQueryOf<paths, M, P>;

/**
 * The translator's API, typed by its OpenAPI document: `api.get('/ai-jobs/{jobId}', { path: { jobId } })`
 * answers the route's body, and its path values, query and body are checked.
 */
export const api = typedApi<paths, 'body'>(request)('get', 'post', 'put', 'patch', 'delete');

export type Session = NonNullable<ResponseOf<'get', '/auth/session'>>;
export type Membership = Session['projects'][number];
export type Role = Membership['role'];
export type InvitePreview = ResponseOf<'get', '/invites/{token}'>;

/** Account calls, made without a key: the session cookie goes by itself. */
export const accounts = {
  providers: () => request<ResponseOf<'get', '/auth/providers'>>('GET', '/auth/providers', undefined, null),
  session: () => request<Session | null>('GET', '/auth/session', undefined, null),
  login: (email: string, password: string) =>
    request<Session>('POST', '/auth/login', { email, password }, null),
  logout: () => request<{ logoutUrl: string | null }>('POST', '/auth/logout', undefined, null),
  invite: (token: string) =>
    request<InvitePreview>('GET', `/invites/${encodeURIComponent(token)}`, undefined, null),
  accept: (token: string, body: { name?: string; password?: string }) =>
    request<Session>('POST', `/invites/${encodeURIComponent(token)}/accept`, body, null),
  editToken: (url: string) =>
    request<ResponseOf<'post', '/auth/edit-token'>>('POST', '/auth/edit-token', { url }, null),
};

/** The project a key opens, asked with that key rather than the stored one (signing in). */
export const projectOf = (key: string) =>
  request<ResponseOf<'get', '/project'>>('GET', '/project', undefined, key);

/** An invitation for `email` as the project's owner, made with `key` (signing in: none is stored yet). */
export const ownerInviteWith = (key: string, email: string) =>
  request<ResponseOf<'post', '/members/invites'>>(
    'POST',
    '/members/invites',
    { email, role: 'owner', languages: [] },
    key,
  );

export type FileFormat = QueryOf<'get', '/files/{lang}'>['format'];
export type ImportReport = ResponseOf<'post', '/files/{lang}'>;

/** Sends a translation file to import into `lang`; a dry run answers what it would change. */
export const importFile = (lang: string, format: FileFormat, file: Blob, dryRun: boolean) =>
  request<ImportReport>(
    'POST',
    `/files/${encodeURIComponent(lang)}?${new URLSearchParams({ format, dryRun: String(dryRun) })}`,
    file,
  );

export type RestorePreview = ResponseOf<'post', '/backups/{filename}/restore'>;

/** Sends a backup file of the project to keep on the server as a manual backup. */
export const uploadBackup = (file: Blob) => request<Backup>('POST', '/backups/upload', file);

/** Downloads an authenticated response as a file (a plain link cannot send the key header). */
export async function download(path: string, fallbackName: string): Promise<void> {
  const response = await client.send('GET', path, undefined, authHeaders());
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// Shapes of the translator's answers, named after the operations that return them in its OpenAPI
// document (the generated `openapi.ts`), so they change with the server.

type Item<T> = T extends readonly (infer I)[] ? I : never;

export type Project = ResponseOf<'get', '/project'>;
export type Settings = Project['settings'];
export type Row = ResponseOf<'get', '/translations/all'>['rows'][number];
export type PhraseStatus = Row['status'];
export type VarSlot = Row['varSlots'][number];
export type Language = Item<ResponseOf<'get', '/languages'>>;
export type Coverage = Item<ResponseOf<'get', '/analytics/languages'>>;
export type UrlDetail = ResponseOf<'get', '/analytics/url-detail'>;
export type UrlRow = ResponseOf<'get', '/analytics/urls'>['rows'][number];
export type PhraseDetail = ResponseOf<'get', '/analytics/phrase-detail'>;
export type Backup = Item<ResponseOf<'get', '/backups'>>;
export type Job = ResponseOf<'get', '/ai-jobs/{jobId}'>;
export type Prompt = Item<ResponseOf<'get', '/prompts'>>;
export type GlossaryTerm = Item<ResponseOf<'get', '/glossary'>>;
export type TranslationState = NonNullable<Row['state']>;
export type QualityIssue = Row['checks'][number];
export type Quality = ResponseOf<'get', '/analytics/quality'>;
export type HistoryEntry = Item<ResponseOf<'get', '/translations/history'>['entries']>;
