/** The manager's JSON API: envelope unwrapping, typed errors, and the session's CSRF token. */

import { ApiError as KitApiError, createClient, typedApi } from '@app/web-kit';
import type { AnswerOf, InitOf, Method, PathOf } from '@app/web-kit';
import type { ManagerErrorCode } from './error-codes.ts';
import type { paths } from './openapi.ts';

export const API_BASE = '/api/v1';

export const ApiError = KitApiError<ManagerErrorCode>;
export type ApiError = KitApiError<ManagerErrorCode>;

const client = createClient<ManagerErrorCode>({
  base: API_BASE,
  unreachableMessage: 'The manager cannot be reached. Check your connection.',
  rateLimitedMessage: 'Too many failed requests: wait a few minutes and try again.',
  credentials: 'same-origin',
  csrfToken: () => api.get('/csrf-token').then((data) => data.csrfToken),
});

export const { resetCsrf } = client;

/**
 * One request to the API, answering the `data` of its envelope. Untyped: the typed `api` below, or a
 * route the OpenAPI document hides, states the types.
 */
export async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  const answer = await client.request<{ data: T } | undefined>(method, path, body);
  return answer?.data as T;
}

/** What an operation answers: the `data` of its envelope (undefined for 204 No Content). */
export type ResponseOf<M extends Method, P extends PathOf<paths, M>> = AnswerOf<paths, M, P, 'data'>;

/** The body an operation takes. */
export type BodyOf<M extends Method, P extends PathOf<paths, M>> =
  InitOf<paths, M, P> extends { body?: infer B } ? NonNullable<B> : never;

/**
 * The manager's API, typed by its OpenAPI document: `api.get('/sites/{siteId}/nodes/{id}', { path:
 * { siteId, id } })` answers the route's `data`, and its path values, query and body are checked.
 */
export const api = typedApi<paths, 'data'>(send)('get', 'post', 'put', 'delete');
