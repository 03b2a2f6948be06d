import { ApiError, errorOf } from './api-error.ts';
import { operationUrl, type Init } from './operation-url.ts';
import type { AnswerOf, InitArgs, Method, PathOf } from './operations.ts';

export interface ClientOptions {
  /** The prefix of the API's paths, e.g. `/api/v1`. */
  base: string;
  /** The message of a request that reached no server. */
  unreachableMessage: string;
  /** The message of a 429 answer without the error envelope. */
  rateLimitedMessage: string;
  credentials?: RequestCredentials;
  /** Fetches a CSRF token, sent in `x-csrf-token` with every unsafe method and fetched again when refused. */
  csrfToken?: () => Promise<string>;
  /** Sees every error a server answered, with the headers of the request it answers. */
  onErrorAnswer?: (error: ApiError<string>, headers: Record<string, string>) => void;
}

/** The JSON core of a web client: its headers, credentials, CSRF token and errors as `ApiError<Code>`. */
export function createClient<Code extends string>(options: ClientOptions) {
  let csrfToken: Promise<string> | null = null;

  /** Forgets the CSRF token: the session changed (login, logout, register). */
  function resetCsrf() {
    csrfToken = null;
  }

  function currentCsrfToken(fetchToken: () => Promise<string>): Promise<string> {
    csrfToken ??= fetchToken().catch((error: unknown) => {
      csrfToken = null;
      throw error;
    });
    return csrfToken;
  }

  /** One request to `url` as given (no prefix); throws the answer's error unless it is a success. */
  async function send(
    method: string,
    url: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
    retried = false,
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    // A file the user picked goes as it is; anything else as JSON.
    const file = body instanceof Blob;
    if (body !== undefined) headers['content-type'] = file ? 'application/octet-stream' : 'application/json';
    if (options.csrfToken && method !== 'GET' && method !== 'HEAD')
      headers['x-csrf-token'] = await currentCsrfToken(options.csrfToken);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        ...(options.credentials ? { credentials: options.credentials } : {}),
        body: body === undefined || file ? (body as Blob | undefined) : JSON.stringify(body),
      });
    } catch {
      throw new ApiError<Code>(0, 'network_error', options.unreachableMessage);
    }
    if (response.ok) return response;
    const error = await errorOf<Code>(response, options.rateLimitedMessage);
    // The session changed under us (expired, signed in elsewhere): fetch a fresh token once.
    if (options.csrfToken && error.code === 'csrf_invalid' && !retried) {
      resetCsrf();
      return send(method, url, body, extraHeaders, true);
    }
    options.onErrorAnswer?.(error, headers);
    throw error;
  }

  /** One request below the API's prefix, answering its JSON body (undefined for 204 No Content). */
  async function request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<T> {
    const response = await send(method, options.base + path, body, headers);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  return { send, request, resetCsrf };
}

/** The typed call of one method: it checks the path values, query and body against the operation in `Paths`. */
export type TypedCall<Paths, M extends Method, Envelope extends 'body' | 'data'> = <
  P extends PathOf<Paths, M>,
>(
  path: P,
  ...[init]: InitArgs<Paths, M, P>
) => Promise<AnswerOf<Paths, M, P, Envelope>>;

/**
 * A service's API typed by its generated `Paths`: `typedApi<paths, 'data'>(answer)('get', 'post')` gives
 * `{ get, post }`, each answering the operation's body (or envelope `data`); `answer` makes the request.
 */
export const typedApi =
  <Paths, Envelope extends 'body' | 'data'>(
    answer: (method: string, url: string, body: unknown) => Promise<unknown>,
  ) =>
  <M extends Method>(...methods: M[]): { [K in M]: TypedCall<Paths, K, Envelope> } => {
    const call =
      (method: Method) =>
      (path: string, init?: Init): Promise<unknown> =>
        answer(
          method.toUpperCase(),
          operationUrl(path, init),
          method === 'get' || method === 'delete' ? undefined : (init?.body ?? {}),
        );
    // One untyped call serves every typed signature: the types only check what the caller passes.
    return Object.fromEntries(methods.map((method) => [method, call(method)])) as unknown as {
      [K in M]: TypedCall<Paths, K, Envelope>;
    };
  };
