// The requests of the tenant-isolation walk, made from the translator's OpenAPI document: every operation
// with one tenant's own values, and those naming records with another tenant's values.
import { exampleOf, type OpenApiDocument } from '@app/server-kit/testing/openapi-fuzz';

type Schema = Parameters<typeof exampleOf>[0] & { default?: unknown; anyOf?: Schema[]; const?: unknown };

/** What one tenant's requests may name: its records, a page and a text of its own. */
export interface TenantValues {
  phrase: number[];
  translation: number[];
  history: number[];
  glossary: number[];
  invite: number[];
  account: number[];
  prompt: string[];
  job: string[];
  backup: string[];
  /** Invitation tokens are secrets, not guessable names: only the tenant's own requests carry them. */
  token: string[];
  url: string;
  text: string;
}

export interface WalkRequest {
  /** `METHOD /path` as the document names it. */
  operation: string;
  method: string;
  /** Below /api, with its query. */
  path: string;
  body?: unknown;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

const LANGS = ['fr', 'de'];

/** The values of path parameter `name` on `path` (a new parameter name fails the walk until it is added). */
function pathValues(path: string, name: string, values: TenantValues): readonly (string | number)[] {
  switch (name) {
    case 'id':
      if (path.startsWith('/translations/history/')) return values.history;
      if (path.startsWith('/translations/')) return values.translation;
      if (path.startsWith('/glossary/')) return values.glossary;
      if (path.startsWith('/prompts/')) return values.prompt;
      if (path.startsWith('/members/invites/')) return values.invite;
      if (path.startsWith('/textnodes/') || path.startsWith('/phrases/')) return values.phrase;
      break;
    case 'jobId':
      return values.job;
    case 'filename':
      return values.backup;
    case 'accountId':
      return values.account;
    case 'token':
      return values.token;
    case 'lang':
      return LANGS;
  }
  throw new Error(`the tenant walk has no value for {${name}} in ${path}: add one to tenant-walk.ts`);
}

/** Query values that name something of the tenant (a record, a page, a text); the rest come from the schema. */
function queryValue(name: string, values: TenantValues): string | undefined {
  switch (name) {
    case 'lang':
      return 'fr';
    case 'id':
    case 'phrase_id':
      return String(values.phrase[0]);
    case 'url':
      return values.url;
    case 'text':
    case 'search':
      return values.text;
    case 'dryRun':
      return 'true';
  }
  return undefined;
}

/** The values an enumerated parameter takes (`enum`, or a union of constants as the document writes it). */
function enumOf(schema: Schema | undefined): unknown[] | undefined {
  if (schema?.enum) return schema.enum;
  const options = schema?.anyOf?.map((option) => (option.const !== undefined ? [option.const] : option.enum));
  return options?.every((values) => values?.length) ? options.flat() : undefined;
}

/**
 * Puts the tenant's ids where a body names records: phrase ids (`id`, `ids`, `key_ids`, `phrase_id`),
 * translation ids for the review route, prompts. Says whether it put any.
 */
function fillIds(value: unknown, operation: string, values: TenantValues): { body: unknown; named: boolean } {
  let named = false;
  const idOf = () => (operation === 'PATCH /translations/state' ? values.translation[0] : values.phrase[0]);
  const fill = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(fill);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, item]) => {
        if (['ids', 'key_ids'].includes(key)) return ((named = true), [key, [idOf()]]);
        if (['id', 'phrase_id', 'phraseId'].includes(key)) return ((named = true), [key, idOf()]);
        if (key === 'prompt_id') return ((named = true), [key, values.prompt[0]]);
        if (key === 'lang') return [key, 'fr'];
        return [key, fill(item)];
      }),
    );
  };
  return { body: fill(value), named };
}

/** Bodies the schema's example would leave empty of records. */
const BODIES: Record<string, (values: TenantValues) => unknown> = {
  'POST /translations': (values) => ({
    lang: 'fr',
    translations: [{ id: values.phrase[0], value: 'Walk value' }],
  }),
  'POST /ai-jobs': (values) => ({ key_ids: values.phrase, lang: 'de', prompt_id: values.prompt[0] }),
};

/**
 * The requests for one operation. `own`: with the tenant's own values — for a read every value (every
 * backup, phrase, language) and every value of each enumerated query parameter (every file format); for a
 * write the first. Not `own`: only requests that name records, with another tenant's values.
 */
export function requestsFor(
  document: OpenApiDocument,
  operation: string,
  values: TenantValues,
  own: boolean,
): WalkRequest[] {
  const [method, path] = operation.split(' ') as [string, string];
  const spec = (document.paths[path] as Record<string, Operation>)[method.toLowerCase()]!;
  const read = method === 'GET';
  const parameters = spec.parameters ?? [];

  let paths = [path];
  let namesRecords = false;
  for (const parameter of parameters.filter((p) => p.in === 'path')) {
    if (parameter.name === 'token' && !own) return [];
    const all = pathValues(path, parameter.name, values);
    if (parameter.name !== 'lang') namesRecords = true;
    const chosen = read && own ? all : all.slice(0, 1);
    paths = paths.flatMap((template) =>
      chosen.map((value) => template.replace(`{${parameter.name}}`, encodeURIComponent(String(value)))),
    );
  }

  const query = new URLSearchParams();
  const variants: URLSearchParams[] = [];
  for (const parameter of parameters.filter((p) => p.in === 'query')) {
    const known = queryValue(parameter.name, values);
    if (['id', 'phrase_id', 'url', 'text', 'search'].includes(parameter.name)) namesRecords = true;
    const options = enumOf(parameter.schema);
    const value =
      known ??
      (parameter.schema?.default !== undefined ? String(parameter.schema.default) : undefined) ??
      (parameter.required ? String(options?.[0] ?? exampleOf(parameter.schema ?? {})) : undefined);
    if (value !== undefined) query.set(parameter.name, value);
    if (read && own && options)
      for (const option of options.slice(1))
        variants.push(new URLSearchParams({ [parameter.name]: String(option) }));
  }
  const queries = [
    query,
    ...variants.map(
      (variant) => new URLSearchParams({ ...Object.fromEntries(query), ...Object.fromEntries(variant) }),
    ),
  ];

  const schema = spec.requestBody?.content?.['application/json']?.schema;
  let body: unknown;
  if (BODIES[operation]) {
    body = BODIES[operation](values);
    namesRecords = true;
  } else if (schema) {
    const filled = fillIds(exampleOf(schema), operation, values);
    body = filled.body;
    namesRecords ||= filled.named;
  }
  if (!own && !namesRecords) return [];
  // The document's `/` is the API's root, /api itself.
  if (path === '/') paths = [''];
  return paths.flatMap((concrete) =>
    queries.map((search) => ({
      operation,
      method,
      path: search.size ? `${concrete}?${search}` : concrete,
      ...(body === undefined ? {} : { body }),
    })),
  );
}
