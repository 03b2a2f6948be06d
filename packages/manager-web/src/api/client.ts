/** The manager's JSON API: envelope unwrapping, typed errors, and the session's CSRF token. */

export const API_BASE = '/api/v1';

export type FieldErrors = Record<string, string>;

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

  /** The endpoint is not on this server (an API another release adds). */
  get missingEndpoint() {
    return this.status === 404 && this.code === 'not_found' && this.message.startsWith('No route for');
  }
}

let csrfToken: Promise<string> | null = null;

/** Forgets the CSRF token: the session changed (login, logout, register). */
export function resetCsrf() {
  csrfToken = null;
}

function fetchCsrf(): Promise<string> {
  csrfToken ??= request<{ csrfToken: string }>('GET', '/csrf-token')
    .then((data) => data.csrfToken)
    .catch((error: unknown) => {
      csrfToken = null;
      throw error;
    });
  return csrfToken;
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
      ? 'Too many failed requests: wait a few minutes and try again.'
      : `The server answered ${response.status} ${response.statusText}.`;
  return new ApiError(response.status, response.status === 429 ? 'rate_limited' : 'http_error', message);
}

async function request<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD') headers['x-csrf-token'] = await fetchCsrf();
  let response: Response;
  try {
    response = await fetch(API_BASE + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The manager cannot be reached. Check your connection.');
  }
  if (response.status === 204) return undefined as T;
  if (!response.ok) {
    const error = await parseError(response);
    // The session changed under us (expired, signed in elsewhere): fetch a fresh token once.
    if (error.code === 'csrf_invalid' && !retried) {
      resetCsrf();
      return request<T>(method, path, body, true);
    }
    throw error;
  }
  const json = (await response.json()) as { data: T };
  return json.data;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  delete: <T = void>(path: string) => request<T>('DELETE', path),
};

/** A query string from defined, non-empty values; arrays in bracket notation (user[0]=a). */
export function query(params: Record<string, string | number | undefined | null | string[]>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) value.forEach((item, index) => search.append(`${key}[${index}]`, item));
    else if (value !== undefined && value !== null && value !== '') search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
