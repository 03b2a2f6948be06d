import { randomUUID } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { MAX_JSON_DEPTH, MAX_JSON_STRING_LENGTH } from '../http.ts';

/** The part of JSON Schema the route schemas use. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  format?: string;
  [other: string]: unknown;
}

export interface Hostile {
  value: unknown;
  label: string;
  /** The servers must refuse it: the documented schema (as the servers' ajv reads it) or a global rule. */
  mustFail: boolean;
}

// The servers' validator settings (server-kit http.ts), so "must fail" means what the servers enforce.
const ajv = new Ajv({
  allErrors: false,
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: true,
  strict: false,
});
addFormats.default(ajv);

/** Whether the servers must refuse `value` for `schema` (checked on a copy: ajv coerces in place). */
export function mustRefuse(schema: JsonSchema, value: unknown): boolean {
  if (breaksGlobalRules(value)) return true;
  const validate = ajv.compile(schema);
  return !validate(structuredClone(value));
}

/** Rules every JSON body obeys whatever its schema (server-kit http.ts). */
function breaksGlobalRules(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000') || value.length > MAX_JSON_STRING_LENGTH;
  if (!value || typeof value !== 'object') return false;
  return depth >= MAX_JSON_DEPTH || Object.values(value).some((child) => breaksGlobalRules(child, depth + 1));
}

const alternatives = (schema: JsonSchema) => schema.anyOf ?? schema.oneOf;

const typesOf = (schema: JsonSchema): string[] => {
  const options = alternatives(schema);
  if (options) return options.flatMap(typesOf);
  if (schema.const !== undefined) return [typeof schema.const];
  if (schema.enum) return [...new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)))];
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
};

/** A plausible value for `schema` (required properties only), to hold the rest of a request steady. */
export function exampleOf(schema: JsonSchema): unknown {
  const options = alternatives(schema);
  if (options) return exampleOf(options.find((option) => !typesOf(option).includes('null')) ?? options[0]!);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum.find((value) => value !== null) ?? null;
  const type = typesOf(schema).find((name) => name !== 'null') ?? 'null';
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) {
        const property = schema.properties?.[name];
        if (property) out[name] = exampleOf(property);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => exampleOf(schema.items ?? {}));
    case 'integer':
    case 'number':
      // Not 1: an id in a plausible body must name nothing that exists.
      return Math.min(Math.max(987_654, schema.minimum ?? 0), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'boolean':
      return false;
    case 'string':
      return exampleString(schema);
    default:
      return null;
  }
}

function exampleString(schema: JsonSchema): string {
  switch (schema.format) {
    case 'email':
      return 'fuzz@example.test';
    case 'uri':
    case 'url':
      return 'https://fuzz.example.test/';
    case 'date-time':
      return new Date(0).toISOString();
    case 'uuid':
      return randomUUID();
  }
  const candidates = ['fuzz', 'fuzz-1', 'fuzz.example.test', 'en', '1', 'a', '10.0.0.1'];
  const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
  const fits = candidates.find((candidate) => !pattern || pattern.test(candidate)) ?? 'fuzz';
  return fits.padEnd(schema.minLength ?? 0, 'z');
}

const HUGE = 'x'.repeat(MAX_JSON_STRING_LENGTH + 1);

/** Values that attack a field of `schema`, each judged must-fail or not by the servers' own rules. */
export function hostileValues(schema: JsonSchema, required: boolean): Hostile[] {
  const types = typesOf(schema);
  const candidates: [string, unknown][] = [
    ['null', null],
    ['wrong type: object', { a: 1 }],
    ['wrong type: array', [1, 'a']],
    ['boolean', true],
  ];
  if (!required) candidates.push(['absent', undefined]);
  if (types.includes('integer') || types.includes('number')) {
    candidates.push(
      ['text', 'abc'],
      ['negative', -1],
      ['zero', 0],
      ['fraction', 1.5],
      ['2^53', 2 ** 53],
      ['-2^53', -(2 ** 53)],
      ['1e308', 1e308],
      ['digits past 2^64', '99999999999999999999'],
    );
  }
  if (types.includes('string') || types.length === 0) {
    candidates.push(
      ['empty text', ''],
      ['number', 123],
      ['NUL character', 'a\u0000b'],
      ['right-to-left override', '\u202Eevil\u202C.example'],
      ['path traversal', '../../../etc/passwd'],
      ['markup', '<script>alert(1)</script>'],
      ['SQL', "' OR 1=1 --"],
      ['config injection', 'x;}\nserver { listen 1; }#'],
      ['emoji', '😀'.repeat(40)],
      ['huge text', HUGE],
    );
  }
  if (types.includes('array')) {
    candidates.push(
      ['array of nulls', [null]],
      ['5,000 items', Array(5000).fill(exampleOf(schema.items ?? {}))],
    );
  }
  if (types.includes('object')) {
    candidates.push(['nested 200 deep', nested(200)]);
  }
  if (schema.enum || schema.const !== undefined || alternatives(schema)) {
    candidates.push(['outside the enum', 'not-a-member']);
  }
  return candidates.map(([label, value]) => ({ label, value, mustFail: false }));
}

const nested = (depth: number): unknown => {
  let value: unknown = {};
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
};

/** Bodies that each attack one property of `schema` while the rest is `base`. */
export function hostileBodies(schema: JsonSchema, base: unknown): Hostile[] {
  const out: Hostile[] = [];
  const object =
    base && typeof base === 'object' && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(name) ?? false;
    for (const hostile of hostileValues(property, required)) {
      const body = { ...object };
      if (hostile.value === undefined) delete body[name];
      else body[name] = hostile.value;
      out.push({ value: body, label: `${name}: ${hostile.label}`, mustFail: mustRefuse(schema, body) });
    }
  }
  for (const [label, value] of [
    ['null body', null],
    ['array body', [object]],
    ['number body', 42],
  ] as const) {
    out.push({ value, label, mustFail: mustRefuse(schema, value) });
  }
  return out;
}

/** Whether a query parameter value (always text on the wire) must be refused. */
export function queryMustFail(name: string, schema: JsonSchema, text: string): boolean {
  if (text.includes('\u0000')) return true;
  return mustRefuse({ type: 'object', properties: { [name]: schema } }, { [name]: text });
}
