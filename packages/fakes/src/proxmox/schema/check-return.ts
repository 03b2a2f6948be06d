import type { PropertySchema } from './api-schema.ts';
import { enumError, INTEGER, NUMBER, propertyOf, type Errors } from './check-param.ts';

const isScalar = (value: unknown): value is string | number =>
  typeof value === 'string' || typeof value === 'number';

/** JSON values as Perl sees them: a number may come as a string (`nextid`, `loadavg`) and vice versa. */
function typeError(type: string, value: unknown): string | undefined {
  const text = isScalar(value) ? String(value) : undefined;
  const fits: Record<string, boolean> = {
    null: value === null,
    string: text !== undefined,
    integer: text !== undefined && INTEGER.test(text),
    number: text !== undefined && NUMBER.test(text),
    boolean: typeof value === 'boolean' || text === '0' || text === '1',
    array: Array.isArray(value),
    object: typeof value === 'object' && value !== null && !Array.isArray(value),
  };
  return fits[type] === false ? `type check ('${type}') failed - got ${JSON.stringify(value)}` : undefined;
}

/**
 * An answer's `data` against the endpoint's `returns` schema: types, enums, required members, and no
 * unknown members where an object says `additionalProperties: 0` (elsewhere real PVE answers more
 * members than the schema lists: `cap` of a ticket, `tokenid` of a task, `type` of a CT). Records messages under the
 * member's path (`data[0].vmid`).
 */
export function checkReturn(
  schema: PropertySchema | undefined,
  value: unknown,
  path: string,
  errors: Errors,
): void {
  if (!schema?.type) return;
  const error = typeError(schema.type, value);
  if (error) {
    errors[path] = error;
    return;
  }
  if (schema.enum && !schema.enum.includes(String(value)))
    errors[path] = enumError(String(value), schema.enum);
  if (Array.isArray(value))
    value.forEach((item, index) => checkReturn(schema.items, item, `${path}[${index}]`, errors));
  if (schema.type === 'object' && schema.properties)
    checkMembers(schema, value as Record<string, unknown>, path, errors);
}

function checkMembers(schema: PropertySchema, value: Record<string, unknown>, path: string, errors: Errors) {
  const properties = schema.properties!;
  for (const [name, member] of Object.entries(value)) {
    const memberSchema = propertyOf(properties, name);
    if (memberSchema) checkReturn(memberSchema, member, `${path}.${name}`, errors);
    else if (schema.additionalProperties === 0)
      errors[`${path}.${name}`] = 'property is not defined in schema';
  }
  for (const [name, member] of Object.entries(properties)) {
    if (!member.optional && !name.endsWith('[n]') && value[name] === undefined)
      errors[`${path}.${name}`] = 'property is missing and it is not optional';
  }
}
