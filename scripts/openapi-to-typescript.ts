/**
 * TypeScript declarations for the operations of an OpenAPI 3.1 document as the services' route
 * schemas produce it (inline JSON Schemas, no `$ref`): one `paths` interface keyed by path and
 * method, each operation with its path and query parameters, request body, success answers and the
 * error codes its error answers list.
 */

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  description?: string;
  default?: unknown;
  $ref?: string;
}

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

interface Content {
  content?: Record<string, { schema?: JsonSchema }>;
  required?: boolean;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: Content;
  responses?: Record<string, Content>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

const doc = (description: string | undefined) =>
  description ? `/** ${description.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n` : '';

const union = (members: string[]) => {
  const unique = [...new Set(members)];
  return unique.length === 0 ? 'never' : unique.length === 1 ? unique[0]! : `(${unique.join(' | ')})`;
};

/** The TypeScript type of values the schema accepts. */
export function schemaType(schema: JsonSchema | boolean | undefined): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (schema.$ref) throw new Error(`$ref is not supported: ${schema.$ref}`);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return union(schema.enum.map((value) => JSON.stringify(value)));
  if (schema.anyOf ?? schema.oneOf) return union((schema.anyOf ?? schema.oneOf)!.map(schemaType));
  if (schema.allOf) return `(${schema.allOf.map(schemaType).join(' & ')})`;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? objectType(schema) : 'unknown';
  return union(types.map((type) => typeOf(type, schema)));
}

function typeOf(type: string, schema: JsonSchema): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${schemaType(schema.items)}[]`;
    case 'object':
      return objectType(schema);
    default:
      throw new Error(`unsupported schema type ${type}`);
  }
}

function objectType(schema: JsonSchema): string {
  const required = new Set(schema.required ?? []);
  const members = Object.entries(schema.properties ?? {}).map(
    ([name, property]) =>
      `${doc(property.description)}${key(name)}${required.has(name) ? '' : '?'}: ${schemaType(property)};`,
  );
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) members.push(`[key: string]: ${schemaType(extra)};`);
  if (members.length === 0) return extra === false ? 'Record<string, never>' : 'Record<string, unknown>';
  return `{\n${members.join('\n')}\n}`;
}

/** A parameter the server fills in with its default when the call leaves it out is optional to the caller. */
const isRequired = (parameter: Parameter) => parameter.required && parameter.schema.default === undefined;

function parametersType(parameters: Parameter[], place: string): string | undefined {
  const members = parameters
    .filter((parameter) => parameter.in === place)
    .map(
      (parameter) =>
        `${doc(parameter.description)}${key(parameter.name)}${isRequired(parameter) ? '' : '?'}: ${schemaType(parameter.schema)};`,
    );
  return members.length ? `{\n${members.join('\n')}\n}` : undefined;
}

function contentType(content: Content | undefined): string {
  const json = content?.content?.['application/json'];
  if (json) return schemaType(json.schema);
  return content?.content ? 'string' : 'void';
}

/** The error codes the answer's `error.code` enumerates. */
function errorCodes(content: Content | undefined): string[] {
  const schema = content?.content?.['application/json']?.schema;
  const code = schema?.properties?.['error']?.properties?.['code'];
  return (code?.enum ?? []).map((value) => JSON.stringify(value));
}

function operationType(operation: Operation): string {
  const parameters = operation.parameters ?? [];
  const members: string[] = [];
  const path = parametersType(parameters, 'path');
  if (path) members.push(`path: ${path};`);
  const query = parametersType(parameters, 'query');
  const queryRequired = parameters.some((parameter) => parameter.in === 'query' && isRequired(parameter));
  if (query) members.push(`query${queryRequired ? '' : '?'}: ${query};`);
  if (operation.requestBody)
    members.push(`body${operation.requestBody.required ? '' : '?'}: ${contentType(operation.requestBody)};`);
  const responses = Object.entries(operation.responses ?? {});
  const success = responses.filter(([status]) => status.startsWith('2'));
  members.push(
    success.length
      ? `responses: {\n${success.map(([status, content]) => `${status}: ${contentType(content)};`).join('\n')}\n};`
      : // A WebSocket route: it answers with an upgrade (101), never with a body of its own.
        'responses: Record<string, never>;',
  );
  const errors = responses
    .filter(([status]) => !status.startsWith('2'))
    .flatMap(([, content]) => errorCodes(content));
  members.push(`errorCode: ${union(errors)};`);
  return `{\n${members.join('\n')}\n}`;
}

/** The declarations of the document's operations, unformatted. */
export function pathsType(document: OpenApiDocument): string {
  const paths = Object.entries(document.paths).map(([path, item]) => {
    const operations = METHODS.filter((method) => item[method]).map(
      (method) => `${method}: ${operationType(item[method]!)};`,
    );
    return `${JSON.stringify(path)}: {\n${operations.join('\n')}\n};`;
  });
  return `export interface paths {\n${paths.join('\n')}\n}\n`;
}
