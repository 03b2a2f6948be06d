/** Field names whose values are secrets wherever they appear in a request body. */
const SECRET_NAME = /pass(word)?|secret|token|key|credential|authorization|cookie|sealed|smtpUrl|dsn/i;
/** Fields holding environment variables: their names are kept, their values never. */
const ENVIRONMENT_NAME = /env(ironment)?(_?vars?)?$/i;
const REDACTED = '[redacted]';
/** What stands in for the fields and items left out once a value's budget is spent. */
export const CUT = '[cut]';
const MAX_DEPTH = 6;
const MAX_STRING = 512;
const MAX_NAME = 128;
const MAX_ITEMS = 50;
/** Characters of names and values one request's details may hold (the stored JSON stays near this). */
const MAX_CHARACTERS = 8192;

interface Budget {
  left: number;
}

/**
 * A request body made safe for the audit log: secret-named fields replaced by `[redacted]` (inside
 * arrays too), environment variables reduced to their names, long strings, long names, big objects and
 * arrays cut, and the whole held to a size budget. What is kept says what was changed; no password,
 * token, key or environment value survives (test/audit.test.ts checks).
 */
export function redact(value: unknown, depth = 0, budget: Budget = { left: MAX_CHARACTERS }): unknown {
  if (value === null || typeof value === 'boolean') return spend(budget, 4) ? value : CUT;
  if (typeof value === 'number') return spend(budget, String(value).length) ? value : CUT;
  if (typeof value === 'string') return cutString(value, MAX_STRING, budget);
  if (depth >= MAX_DEPTH || typeof value !== 'object') return REDACTED;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      if (out.length === MAX_ITEMS || budget.left <= 0) return [...out, CUT];
      out.push(redact(item, depth + 1, budget));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    if (field === undefined) continue;
    if (count++ === MAX_ITEMS || budget.left <= 0) {
      out[CUT] = CUT;
      break;
    }
    const key = cutString(name, MAX_NAME, budget);
    if (ENVIRONMENT_NAME.test(name)) out[key] = environmentNames(field, budget);
    else if (SECRET_NAME.test(name)) out[key] = REDACTED;
    else out[key] = redact(field, depth + 1, budget);
  }
  return out;
}

/** The variable names of `{NAME: value}` or `[{key|name, value}]`; anything else is redacted whole. */
function environmentNames(field: unknown, budget: Budget): unknown {
  const names = Array.isArray(field)
    ? field.map((item) => {
        const entry = item as { key?: unknown; name?: unknown } | null;
        return typeof entry?.key === 'string'
          ? entry.key
          : typeof entry?.name === 'string'
            ? entry.name
            : REDACTED;
      })
    : field && typeof field === 'object'
      ? Object.keys(field)
      : null;
  if (!names) return REDACTED;
  const out: string[] = [];
  for (const name of names) {
    if (out.length === MAX_ITEMS || budget.left <= 0) return [...out, CUT];
    out.push(cutString(name, MAX_NAME, budget));
  }
  return out;
}

function cutString(text: string, max: number, budget: Budget): string {
  const length = Math.max(0, Math.min(max, budget.left));
  budget.left -= Math.min(text.length, length) + 2;
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

function spend(budget: Budget, characters: number): boolean {
  if (budget.left <= 0) return false;
  budget.left -= characters;
  return true;
}
