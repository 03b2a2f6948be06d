import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What an incoming `X-Request-Id` may be to be kept: a short token that is safe in any log line. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The id of a request: the caller's `X-Request-Id` when it is a short safe token (a proxy or a client
 * tracing its own calls), else a fresh UUID.
 */
export function requestId(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && SAFE_ID.test(header) ? header : randomUUID();
}
