import type { PropertySchema } from './api-schema.ts';
import { checkNamedFormat } from './named-formats.ts';

/** `name -> message`, first message per name wins (as JSONSchema.pm's add_error). */
export type Errors = Record<string, string>;

/** Text Perl takes for an integer, a number. */
export const INTEGER = /^[+-]?\d+$/;
export const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export const enumError = (value: string, values: string[]) =>
  `value '${value}' does not have a value in the enumeration '${values.join(', ')}'`;

/** Perl patterns (`(?^:...)`) as JavaScript; PVE anchors every pattern at both ends. */
const patterns = new Map<string, RegExp>();
function patternOf(source: string): RegExp {
  let regex = patterns.get(source);
  if (!regex) {
    regex = new RegExp(`^(?:${source.replaceAll('(?^:', '(?:')})$`);
    patterns.set(source, regex);
  }
  return regex;
}

/**
 * How many of each `name[n]` pve-container defines (LXC/Config.pm: `$MAX_LXC_NETWORKS`,
 * `$MAX_MOUNT_POINTS`, `$MAX_UNUSED_DISKS`, `$MAX_DEVICES`); the viewer's schema folds them into one entry.
 */
const INDEX_LIMITS: Record<string, number> = { net: 32, mp: 256, unused: 256, dev: 256 };

/** `net0` → the schema's `net[n]` entry (`net32` has none). */
export function propertyOf(properties: Record<string, PropertySchema>, name: string) {
  if (Object.hasOwn(properties, name)) return properties[name];
  const indexed = /^(.+?)(0|[1-9]\d*)$/.exec(name);
  if (!indexed || Number(indexed[2]) >= (INDEX_LIMITS[indexed[1]!] ?? Infinity)) return undefined;
  return properties[`${indexed[1]}[n]`];
}

/**
 * Checks one value given as text (a form field, a query parameter, a property-string item) against its
 * schema like JSONSchema.pm's check_prop; records PVE's message under `path`. In property strings
 * booleans may also be spelt `on/off`, `yes/no`, `true/false` (`lenientBoolean`).
 */
export function checkParam(
  schema: PropertySchema,
  value: string,
  path: string,
  errors: Errors,
  lenientBoolean = false,
): void {
  const error = firstError(schema, value, path, lenientBoolean);
  if (error !== undefined && errors[path] === undefined) errors[path] = error;
}

function firstError(schema: PropertySchema, value: string, path: string, lenientBoolean: boolean) {
  const type = schema.type ?? 'string';
  if (type === 'boolean') {
    const ok = lenientBoolean ? /^(1|0|on|off|yes|no|true|false)$/i : /^[01]$/;
    return ok.test(value) ? undefined : `type check ('boolean') failed - got '${value}'`;
  }
  if (type === 'integer' || type === 'number') {
    if (!(type === 'integer' ? INTEGER : NUMBER).test(value))
      return `type check ('${type}') failed - got '${value}'`;
    if (schema.minimum !== undefined && Number(value) < schema.minimum)
      return `value must have a minimum value of ${schema.minimum}`;
    if (schema.maximum !== undefined && Number(value) > schema.maximum)
      return `value must have a maximum value of ${schema.maximum}`;
    return undefined;
  }
  if (type !== 'string') return undefined;
  if (schema.maxLength !== undefined && value.length > schema.maxLength)
    return `value may only be ${schema.maxLength} characters long`;
  if (schema.minLength !== undefined && value.length < schema.minLength)
    return `value must be at least ${schema.minLength} characters long`;
  if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value))
    return 'value does not match the regex pattern';
  if (schema.enum && !schema.enum.includes(value)) return enumError(value, schema.enum);
  if (typeof schema.format === 'string') {
    const message = checkNamedFormat(schema.format, value);
    return message === undefined ? undefined : `invalid format - ${message}`;
  }
  if (schema.format) return checkPropertyString(schema.format, value, path);
  return undefined;
}

/**
 * A property string (`name=eth0,bridge=vmbr0,ip=dhcp`) against its format object, like
 * JSONSchema.pm's parse_property_string: the key-less item is the `default_key`, keys are known, not
 * repeated, typed, and the required ones present.
 */
function checkPropertyString(format: Record<string, PropertySchema>, value: string, path: string) {
  const defaultKey = Object.keys(format).find((key) => format[key]!.default_key);
  const items = new Map<string, string>();
  for (const part of value.split(',')) {
    if (/^\s*$/.test(part)) continue;
    const pair = /^([^=]+)=(.+)$/.exec(part);
    if (!pair && part.includes('=')) return 'invalid format - missing key in comma-separated list property';
    const key = pair ? pair[1]! : defaultKey;
    if (key === undefined)
      return 'invalid format - value without key, but schema does not define a default key';
    if (items.has(key)) return `invalid format - duplicate key in comma-separated list property: ${key}`;
    items.set(key, pair ? pair[2]! : part);
  }
  const errors: Errors = {};
  for (const [key, item] of items) {
    const schema = format[key];
    if (!schema) {
      errors[`${path}.${key}`] =
        'property is not defined in schema and the schema does not allow additional properties';
    } else checkParam(schema, item, `${path}.${key}`, errors, true);
  }
  for (const [key, schema] of Object.entries(format)) {
    if (!schema.optional && !items.has(key))
      errors[`${path}.${key}`] ??= 'property is missing and it is not optional';
  }
  const lines = Object.entries(errors).map(([key, message]) => `${key}: ${message}`);
  return lines.length ? `invalid format - format error\n${lines.join('\n')}` : undefined;
}
