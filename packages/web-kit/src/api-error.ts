export type FieldErrors = Record<string, string>;

/** A failed call: `Code` is the union of the service's error codes (its generated error-codes.ts). */
export class ApiError<Code extends string = string> extends Error {
  constructor(
    readonly status: number,
    /** The server's code; http_error for an answer without the error envelope, network_error for none. */
    readonly code: Code | 'http_error' | 'network_error',
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

/** The error a failed answer carries in its `{ error }` envelope, or one said from its status. */
export async function errorOf<Code extends string>(
  response: Response,
  rateLimitedMessage: string,
): Promise<ApiError<Code>> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: a proxy error page or an empty body
  }
  const error = (body as { error?: { code?: string; message?: string; fields?: FieldErrors } } | null)?.error;
  if (error?.code)
    return new ApiError<Code>(response.status, error.code as Code, error.message ?? error.code, error.fields);
  // A proxy's 429 has no envelope; rate_limited is a code of every service (server-kit's catalogue).
  if (response.status === 429)
    return new ApiError<Code>(response.status, 'rate_limited' as Code, rateLimitedMessage);
  return new ApiError<Code>(
    response.status,
    'http_error',
    `The server answered ${response.status} ${response.statusText}.`,
  );
}
