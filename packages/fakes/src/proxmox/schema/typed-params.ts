import type { Endpoint } from './api-schema.ts';
import { propertyOf } from './check-param.ts';

/**
 * Checked fields as a handler gets them: integers, numbers and booleans as numbers, the rest as text;
 * the path's `{name}` values included.
 */
export function typedParams(
  endpoint: Endpoint,
  fields: Record<string, string>,
): Record<string, string | number> {
  const properties = endpoint.schema.parameters?.properties ?? {};
  const params = { ...fields, ...endpoint.pathParams };
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      const type = propertyOf(properties, name)?.type;
      const numeric = type === 'integer' || type === 'number' || type === 'boolean';
      return [name, numeric ? Number(value) : value];
    }),
  );
}
