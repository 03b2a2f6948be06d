/**
 * The OpenAPI 3.0 rendition of a generated 3.1 document, for Swagger UI only. Swagger UI reads a 3.1
 * document through ApiDOM, which takes seconds per opened operation on a document of our size (the same
 * document as 3.0 opens at once: swagger-api/swagger-ui#10748). Our schemas use one 3.1-only construct,
 * null as a type; 3.0 says `nullable` instead. /openapi.json and /openapi.yaml stay 3.1.
 */
export function asOpenApi30(document: object): object {
  return { ...(nullable(document) as object), openapi: '3.0.3' };
}

const isNullType = (schema: unknown) =>
  typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'null';

function nullable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullable);
  if (typeof value !== 'object' || value === null) return value;
  const schema: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) schema[key] = nullable(member);
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((type) => type !== 'null');
    if (types.length === 1) schema.type = types[0];
    else {
      delete schema.type;
      schema.anyOf = types.map((type) => ({ type }));
    }
    schema.nullable = true;
  }
  for (const union of ['anyOf', 'oneOf'] as const) {
    const members = schema[union];
    if (!Array.isArray(members) || !members.some(isNullType)) continue;
    const rest = members.filter((member) => !isNullType(member));
    if (rest.length === 1) {
      delete schema[union];
      Object.assign(schema, rest[0]);
    } else schema[union] = rest;
    schema.nullable = true;
  }
  return schema;
}
