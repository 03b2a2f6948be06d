/** Field names whose values are secrets wherever they appear in a request body. */
const SECRET_NAME = /pass(word)?|secret|token|key|credential|authorization|cookie|sealed|smtpUrl|dsn/i;
/** Fields holding environment variables: their names are kept, their values never. */
const ENVIRONMENT_NAME = /env(ironment)?(_?vars?)?$/i;
const REDACTED = '[redacted]';
const MAX_DEPTH = 6;
const MAX_STRING = 512;
const MAX_ITEMS = 50;

/**
 * A request body made safe for the audit log: secret-named fields replaced by `[redacted]`,
 * environment variables reduced to their names, long strings and arrays cut. What is kept says what
 * was changed; no password, token, key or environment value survives (test/audit.test.ts checks).
 */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (depth >= MAX_DEPTH || typeof value !== 'object') return REDACTED;
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    if (field === undefined) continue;
    if (ENVIRONMENT_NAME.test(name)) out[name] = environmentNames(field);
    else if (SECRET_NAME.test(name)) out[name] = REDACTED;
    else out[name] = redact(field, depth + 1);
  }
  return out;
}

/** The variable names of `{NAME: value}` or `[{key|name, value}]`; anything else is redacted whole. */
function environmentNames(field: unknown): unknown {
  if (Array.isArray(field)) {
    return field.slice(0, MAX_ITEMS).map((item) => {
      const entry = item as { key?: unknown; name?: unknown } | null;
      return typeof entry?.key === 'string'
        ? entry.key
        : typeof entry?.name === 'string'
          ? entry.name
          : REDACTED;
    });
  }
  if (field && typeof field === 'object') return Object.keys(field).slice(0, MAX_ITEMS);
  return REDACTED;
}
