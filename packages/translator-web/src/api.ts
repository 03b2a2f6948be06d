/** The translator's JSON API under `/api`, authenticated with the project key in `X-API-Key`. */
import type { Row } from '@app/translator/api-types';

export type FieldErrors = Record<string, string>;

// Shapes the translator declares itself come from it, so the two cannot drift (types only).
export type { Job, JobStatus, PhraseStatus, Prompt, Row, VarSlot } from '@app/translator/api-types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

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

/** Called when the server says the key is no longer valid (regenerated elsewhere). */
let onUnauthorized: (() => void) | null = null;
export function setUnauthorizedHandler(handler: (() => void) | null) {
  onUnauthorized = handler;
}

async function parseError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: a proxy error page or an empty body
  }
  const error = (body as { error?: { code?: string; message?: string; fields?: FieldErrors } } | null)?.error;
  if (error?.code)
    return new ApiError(response.status, error.code, error.message ?? error.code, error.fields);
  const message =
    response.status === 429
      ? 'Too many failed requests: wait a minute and try again.'
      : `The server answered ${response.status} ${response.statusText}.`;
  return new ApiError(response.status, response.status === 429 ? 'rate_limited' : 'http_error', message);
}

async function send(method: string, path: string, body?: unknown, key = storedKey()): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key) headers['x-api-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The translator cannot be reached. Check your connection.');
  }
  if (!response.ok) {
    const error = await parseError(response);
    if (error.status === 401 && key && key === storedKey()) onUnauthorized?.();
    throw error;
  }
  return response;
}

async function request<T>(method: string, path: string, body?: unknown, key?: string): Promise<T> {
  const response = await send(method, path, body, key);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export const api = {
  get: <T>(path: string, key?: string) => request<T>('GET', path, undefined, key),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body ?? {}),
  delete: <T = { ok: boolean }>(path: string) => request<T>('DELETE', path),
};

/** Downloads an authenticated response as a file (a plain link cannot send the key header). */
export async function download(path: string, fallbackName: string): Promise<void> {
  const response = await send('GET', path);
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

/** A query string from defined, non-empty values. */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

// ---- shapes (spec plus the translator's README for the parts the spec leaves open) ----

export interface Settings {
  languages: string[];
  translationProviderApiKey: string;
  translationProviderApiKeySet: boolean;
  blockedTags: string[];
  inlineTags: string[];
  domContextSelectors: string[];
  contextDepth: number;
  domContextEnabled: boolean;
  screenshotsEnabled: boolean;
  /** Origins whose pages may use the page key. */
  allowedOrigins: string[];
}

export interface Project {
  id: number;
  name: string;
  api_key: string;
  /** The publishable page key (`tpk_…`) for the install snippet. */
  page_key: string;
  settings: Settings;
  /** The last page origin the full key was used from, until dismissed or the key is regenerated. */
  full_key_used_from: { origin: string; at: string } | null;
  created_at: string;
}

export interface RowPage {
  rows: Row[];
  total: number;
  page: number;
  limit: number;
}

export interface Counts {
  pending: number;
  approved: number;
  trash: number;
}

export interface Language {
  code: string;
  name: string;
}

export interface Summary {
  totalPhrases: number;
  approvedPhrases: number;
  pendingPhrases: number;
  trashPhrases: number;
  uniqueUrls: number;
  totalTranslations: number;
  languageCount: number;
  phrasesWithSlots: number;
}

export interface Coverage {
  lang: string;
  translated: number;
  coverage: number;
}

export interface UrlRow {
  url: string;
  phraseCount: number;
  approved: number;
  pending: number;
}

export interface UrlDetail {
  url: string;
  totalPhrases: number;
  approved: number;
  pending: number;
  pendingKeyIds: number[];
}

export interface PhraseDetail {
  id: number;
  key: string;
  context: string;
  status: string;
  translations: { lang: string; value: string }[];
}

export interface Backup {
  filename: string;
  size: number;
  created: string;
}
