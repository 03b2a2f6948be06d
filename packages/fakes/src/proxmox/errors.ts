import { FakeHttpError } from '../shared/types.ts';
import type { FakeReply } from '../shared/types.ts';

interface PveErrorDetails {
  /** Parameter errors (`errors` member of the body). */
  errors?: Record<string, string>;
  /** 401 and 595/596 answers carry no body, only the reason phrase. */
  emptyBody?: boolean;
}

/** A plain `die` in a Proxmox handler: status + reason phrase = the message's first line. */
export function pveError(status: number, message: string): FakeHttpError {
  return new FakeHttpError(status, message);
}

export function paramError(errors: Record<string, string>): FakeHttpError {
  return new FakeHttpError(400, 'Parameter verification failed.', { errors } satisfies PveErrorDetails);
}

export function authError(message: string): FakeHttpError {
  return new FakeHttpError(401, message, { emptyBody: true } satisfies PveErrorDetails);
}

export function permissionError(reason: string): FakeHttpError {
  return new FakeHttpError(403, `Permission check failed (${reason})`);
}

/** Request proxied to a cluster member that is offline (AnyEvent::HTTP pseudo-status). */
export function unreachableNodeError(): FakeHttpError {
  return new FakeHttpError(595, 'No route to host', { emptyBody: true } satisfies PveErrorDetails);
}

/**
 * Renders like pve-http-server: reason phrase = first line; JSON `{data:null}` plus `errors` and
 * (libpve-http-server-perl >= 5.2.0) `message` with its trailing newline.
 */
export function renderPveError(err: FakeHttpError, withMessage: boolean): FakeReply {
  const details = (err.details ?? {}) as PveErrorDetails;
  if (details.emptyBody) return { status: err.status, reason: err.message, body: '' };
  const body: Record<string, unknown> = { data: null };
  if (details.errors) body.errors = details.errors;
  if (withMessage) body.message = `${err.message}\n`;
  return {
    status: err.status,
    reason: err.message,
    headers: { 'content-type': 'application/json;charset=UTF-8' },
    body: JSON.stringify(body),
  };
}
