import { INT32_MAX } from '../common/schemas.ts';
import { redact } from './redact.ts';

/** An entry's details: always an object (or null: no body), whatever the request sent. */
export type AuditDetails = Record<string, unknown>;

/**
 * The details of a request body: an object's fields, redacted and bounded; a body of any other JSON
 * shape (an array, a string, a number) under `body`, redacted and bounded the same way.
 */
export function detailsOf(body: unknown): AuditDetails | null {
  if (body === undefined || body === null) return null;
  return wrapped(redact(body));
}

/**
 * The details of a stored entry. Earlier versions stored any JSON a request sent (an array at the top);
 * such an entry reads as `{body: …}`, and text that does not parse as `{body: '[unreadable]'}`, so no
 * entry can stop the log from being listed.
 */
export function storedDetails(text: string | null): AuditDetails | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value === null ? null : wrapped(value);
  } catch {
    return { body: '[unreadable]' };
  }
}

function wrapped(value: unknown): AuditDetails {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as AuditDetails)
    : { body: value };
}

/**
 * A site or container id as an entry holds it: a path's `siteId` that is no row id (`1.5`, `1e999`,
 * `NaN`, past the column's range) names none (the entry's target id keeps the text), and neither does
 * such a value an earlier version stored.
 */
export function rowIdOf(value: unknown): number | null {
  const id = typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= INT32_MAX ? id : null;
}
