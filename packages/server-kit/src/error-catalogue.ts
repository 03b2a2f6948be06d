import { AppError, type FieldErrors } from './errors.ts';
import type { ErrorCodes } from './openapi-errors.ts';

/**
 * One error a service answers with: its HTTP status and the message a client gets when the thrower has
 * nothing more precise to say. `alsoStatus` is for a code the contract gives another status on some routes.
 */
export interface ErrorEntry {
  readonly status: number;
  readonly message: string;
  readonly alsoStatus?: number;
  /** Answered only by routes kept out of the OpenAPI document. */
  readonly hidden?: true;
}

export type ErrorCatalogue = Readonly<Record<string, ErrorEntry>>;

/** The errors every service can answer with: bad input, credentials, missing things, limits, outages. */
export const BASE_ERRORS = {
  invalid_request: { status: 400, message: 'The request is not valid: correct it and send it again.' },
  unauthorized: { status: 401, message: 'Sign in or send a valid API key.' },
  forbidden: { status: 403, message: 'You are not allowed to do this.' },
  not_found: { status: 404, message: 'Not found.' },
  request_timeout: { status: 408, message: 'The request took too long to arrive.' },
  conflict: { status: 409, message: 'This conflicts with the current state: reload and try again.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  uri_too_long: { status: 414, message: 'A part of the path is too long (at most 100 characters).' },
  unsupported_media_type: { status: 415, message: 'Send the body as application/json.' },
  validation_failed: { status: 422, message: 'Some fields are invalid.' },
  rate_limited: { status: 429, message: 'Too many requests: wait a moment and try again.' },
  headers_too_large: { status: 431, message: 'The request line or headers are too large.' },
  internal_error: { status: 500, message: 'Something went wrong on our side. Try again later.' },
  service_unavailable: { status: 503, message: 'The service is unavailable right now. Try again later.' },
} as const satisfies ErrorCatalogue;

export type BaseErrorCode = keyof typeof BASE_ERRORS;

type Code<Catalogue extends ErrorCatalogue> = keyof Catalogue & string;
type OtherStatus<Entry extends ErrorEntry> = Entry extends { alsoStatus: infer Status } ? Status : never;
type CodeAs<Catalogue extends ErrorCatalogue> = {
  [C in Code<Catalogue>]: readonly [OtherStatus<Catalogue[C]>, C];
}[Code<Catalogue>];

/**
 * The typed ways to use a catalogue: `fail` builds the error of a catalogued code (any other code does not
 * compile), `failAs` the same with the code's other status, and `errorsOf` lists codes for a route's
 * `config.errors` or a guard, each under the status the catalogue gives it.
 */
export function useCatalogue<Catalogue extends ErrorCatalogue>(catalogue: Catalogue) {
  const entry = (code: string): ErrorEntry => {
    const found = catalogue[code];
    if (!found) throw new Error(`The error code ${code} is not in the catalogue.`);
    return found;
  };
  return {
    fail(code: Code<Catalogue>, message?: string, fields?: FieldErrors, headers?: Record<string, string>) {
      return new AppError(entry(code).status, code, message ?? entry(code).message, fields, headers);
    },
    failAs<C extends Code<Catalogue>>(status: OtherStatus<Catalogue[C]>, code: C, message?: string) {
      return new AppError(status as number, code, message ?? entry(code).message);
    },
    /** A code, or `[status, code]` for a code under its other status. */
    errorsOf(...codes: (Code<Catalogue> | CodeAs<Catalogue>)[]): ErrorCodes {
      const byStatus: Record<number, string[]> = {};
      for (const item of codes) {
        const [status, code] =
          typeof item === 'string' ? [entry(item).status, item] : (item as readonly [number, string]);
        (byStatus[status] ??= []).push(code);
      }
      return byStatus;
    },
  };
}
