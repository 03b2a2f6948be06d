import type { Endpoint } from './api-schema.ts';
import { checkParam, propertyOf, type Errors } from './check-param.ts';

/**
 * The parameters of one request (query and body fields as text, merged; the path's `{name}` values
 * win) against its endpoint's schema, as pve-http-server verifies them before calling the handler.
 * Returns PVE's `errors` map, empty when the request is fine.
 */
export function checkRequest(endpoint: Endpoint, fields: Record<string, string>): Errors {
  const { properties = {}, additionalProperties } = endpoint.schema.parameters ?? {};
  const params = { ...fields, ...endpoint.pathParams };
  const errors: Errors = {};
  for (const [name, value] of Object.entries(params)) {
    const schema = propertyOf(properties, name);
    if (!schema) {
      if (!additionalProperties)
        errors[name] =
          'property is not defined in schema and the schema does not allow additional properties';
      continue;
    }
    if (schema.requires && params[schema.requires] === undefined)
      errors[schema.requires] ??= `missing property - '${name}' requires this property`;
    checkParam(schema, value, name, errors);
  }
  for (const [name, schema] of Object.entries(properties)) {
    if (!schema.optional && !name.endsWith('[n]') && params[name] === undefined)
      errors[name] ??= 'property is missing and it is not optional';
  }
  return errors;
}
