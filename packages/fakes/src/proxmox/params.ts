import { parseJsonBody } from '../shared/ids.ts';
import type { FakeRequest } from '../shared/types.ts';
import { paramError, pveError } from './errors.ts';

export type ParamType = 'string' | 'integer' | 'boolean' | 'number';

/** One endpoint's parameter schema: name (or pattern like `net\d+`) → type. */
export type ParamSchema = Record<string, ParamType>;

/** Parameters as pve-http-server collects them: query string merged with a form or JSON body. */
export function collectParams(req: FakeRequest): { values: Record<string, string>; fromJson: boolean } {
  const values: Record<string, string> = Object.fromEntries(req.query);
  if (req.body.length === 0) return { values, fromJson: false };
  if (req.method === 'GET' || req.method === 'DELETE') {
    throw pveError(501, `Unexpected content for method '${req.method}'`);
  }
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/json')) {
    const parsed = parseJsonBody(req.body);
    if (!parsed || typeof parsed.value !== 'object' || parsed.value === null) {
      throw paramError({ body: 'invalid JSON' });
    }
    for (const [key, value] of Object.entries(parsed.value)) {
      if (typeof value === 'boolean') values[key] = value ? '1' : '0';
      else if (value !== null && value !== undefined) values[key] = String(value);
    }
    return { values, fromJson: true };
  }
  for (const [key, value] of new URLSearchParams(req.body.toString('utf8'))) values[key] = value;
  return { values, fromJson: false };
}

function typeOf(schema: ParamSchema, name: string): ParamType | undefined {
  if (schema[name]) return schema[name];
  for (const [pattern, type] of Object.entries(schema)) {
    if (pattern.includes('\\') && new RegExp(`^${pattern}$`).test(name)) return type;
  }
  return undefined;
}

/**
 * Checks names and types like JSONSchema.pm and returns typed values (integers and booleans as
 * numbers). Unknown names and type errors → 400 with the `errors` map.
 */
export function validateParams(
  values: Record<string, string>,
  schema: ParamSchema,
  required: string[] = [],
): Record<string, string | number> {
  const errors: Record<string, string> = {};
  const typed: Record<string, string | number> = {};
  for (const name of required) {
    if (values[name] === undefined) errors[name] = 'property is missing and it is not optional';
  }
  for (const [name, raw] of Object.entries(values)) {
    const type = typeOf(schema, name);
    if (!type) {
      errors[name] = 'property is not defined in schema and the schema does not allow additional properties';
      continue;
    }
    if (type === 'boolean') {
      if (raw !== '0' && raw !== '1') errors[name] = `type check ('boolean') failed - got '${raw}'`;
      else typed[name] = Number(raw);
    } else if (type === 'integer') {
      if (!/^-?\d+$/.test(raw)) errors[name] = `type check ('integer') failed - got '${raw}'`;
      else typed[name] = Number(raw);
    } else if (type === 'number') {
      if (!/^-?\d+(\.\d+)?$/.test(raw)) errors[name] = `type check ('number') failed - got '${raw}'`;
      else typed[name] = Number(raw);
    } else typed[name] = raw;
  }
  if (Object.keys(errors).length) throw paramError(errors);
  return typed;
}

/** `name=eth0,bridge=vmbr0,ip=dhcp` → ordered map; a bare first item is stored under `defaultKey`. */
export function parsePropertyString(value: string, defaultKey?: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const part of value.split(',')) {
    if (!part) continue;
    const index = part.indexOf('=');
    if (index === -1 && defaultKey && !result.has(defaultKey)) result.set(defaultKey, part);
    else if (index === -1) result.set(part, '1');
    else result.set(part.slice(0, index), part.slice(index + 1));
  }
  return result;
}

/** Canonical order: the default key first, then required keys, then the rest alphabetically. */
export function formatPropertyString(
  map: Map<string, string>,
  defaultKey?: string,
  requiredKeys: string[] = [],
): string {
  const keys = [...map.keys()];
  const head = [defaultKey, ...requiredKeys].filter((k): k is string => !!k && map.has(k));
  const rest = keys.filter((k) => !head.includes(k)).sort();
  return [...head, ...rest]
    .map((key) => (key === defaultKey ? map.get(key)! : `${key}=${map.get(key)!}`))
    .join(',');
}
