import { request as httpRequest, Agent } from 'node:http';
import {
  exampleOf,
  hostileBodies,
  hostileValues,
  queryMustFail,
  type Hostile,
  type JsonSchema,
} from './fuzz-values.ts';

/** A plausible value for a schema (required properties only), for tests that walk a document's operations. */
export { exampleOf };

/**
 * Hostile input for every operation of an OpenAPI document, sent over real HTTP (node:http, so paths
 * reach the server exactly as written: `..`, `%00`, over-long parameters), with the answers checked:
 * no 5xx, an answer within the timeout, every 4xx in the error envelope, no stack trace in any body.
 */

export interface OpenApiDocument {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** `METHOD /path` of every operation of a document, as the authorization matrices name their rows. */
export function operationsOf(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

export interface FuzzCaller {
  name: string;
  headers: Record<string, string>;
  /** Send only input that must be refused to guarded operations (see FuzzOptions.guarded). */
  careful: boolean;
}

export interface FuzzOptions {
  /** Origin of the server, e.g. http://127.0.0.1:3000. */
  origin: string;
  document: OpenApiDocument;
  callers: FuzzCaller[];
  /**
   * Operations (`METHOD /path` as in the document) that change data that exists before the run — a
   * singleton such as settings, or anything addressed by `realPathValues` — get only input that must be
   * refused from careful callers, so the data can be compared afterwards.
   */
  guarded?: (operation: string) => boolean;
  /**
   * The value of path parameter `name` that names a real record on `path` (a document path), for a
   * second pass that sends must-fail input only to real records; undefined leaves the route out of it.
   */
  realPathValue?: (path: string, name: string) => string | undefined;
  /** Operations left out entirely (say why where they are listed). */
  skip?: (operation: string) => boolean;
  timeoutMs?: number;
}

export interface FuzzFinding {
  caller: string;
  request: string;
  status: number | 'timeout' | 'error';
  problem: string;
  body: string;
}

export interface FuzzReport {
  requests: number;
  findings: FuzzFinding[];
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** True when the server must refuse it (the input breaks the documented schema). */
  mustFail: boolean;
  label: string;
}

const STACK_TRACE = /\n\s+at \S+|\bat [^\s()]+ \([^)]*:\d+:\d+\)|node_modules\/|\.ts:\d+:\d+/;

export async function fuzzOpenApi(options: FuzzOptions): Promise<FuzzReport> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const findings: FuzzFinding[] = [];
  let requests = 0;
  const prefix = options.document.servers?.[0]?.url ?? '';
  try {
    for (const [path, operations] of Object.entries(options.document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        if (options.skip?.(name)) continue;
        const guarded = options.guarded?.(name) ?? false;
        const hostile = requestsFor(method.toUpperCase(), prefix + path, operation, undefined);
        const realValue = options.realPathValue;
        const real = realValue
          ? requestsFor(method.toUpperCase(), prefix + path, operation, (name) =>
              realValue(path, name),
            ).filter((request) => request.mustFail)
          : [];
        for (const caller of options.callers) {
          const batch = caller.careful && guarded ? hostile.filter((request) => request.mustFail) : hostile;
          for (const request of [...batch, ...real]) {
            requests += 1;
            const finding = await send(agent, options, caller, request);
            if (finding) findings.push(finding);
          }
        }
      }
    }
  } finally {
    agent.destroy();
  }
  return { requests, findings };
}

/**
 * Every hostile request for one operation: each path parameter, query parameter and body property in turn
 * gets each hostile value of its type while the rest stays plausible; then whole-body attacks. Path
 * parameters not under attack take `real` values when given (else an id that exists nowhere).
 */
function requestsFor(
  method: string,
  template: string,
  operation: Operation,
  real: ((name: string) => string | undefined) | undefined,
): FuzzRequest[] {
  const parameters = operation.parameters ?? [];
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  if (
    real &&
    (!pathParameters.length || pathParameters.some((parameter) => real(parameter.name) === undefined))
  )
    return [];
  const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const plainPath = (overrides: Record<string, string> = {}) =>
    template.replace(/\{(\w+)\}/g, (_match, name: string) =>
      overrides[name] !== undefined ? overrides[name] : (real?.(name) ?? '987654'),
    );
  const baseBody = bodySchema ? exampleOf(bodySchema) : undefined;
  const json = (value: unknown) => ({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });
  const withBody: { headers: Record<string, string>; body?: string } =
    baseBody === undefined ? { headers: {} } : json(baseBody);
  const out: FuzzRequest[] = [];

  if (!real) {
    for (const parameter of pathParameters) {
      for (const value of PATH_VALUES) {
        out.push({
          method,
          path: plainPath({ [parameter.name]: value }),
          headers: { ...withBody.headers },
          ...(withBody.body !== undefined ? { body: withBody.body } : {}),
          mustFail: false,
          label: `path ${parameter.name}=${value.slice(0, 30)}`,
        });
      }
    }
  }
  for (const parameter of queryParameters) {
    for (const hostile of hostileValues(parameter.schema ?? {}, parameter.required ?? false)) {
      if (hostile.value === undefined) continue;
      const text = typeof hostile.value === 'string' ? hostile.value : JSON.stringify(hostile.value);
      out.push({
        method,
        path: `${plainPath()}?${encodeURIComponent(parameter.name)}=${encodeURIComponent(text)}`,
        headers: { ...withBody.headers },
        ...(withBody.body !== undefined ? { body: withBody.body } : {}),
        mustFail: queryMustFail(parameter.name, parameter.schema ?? {}, text),
        label: `query ${parameter.name}: ${hostile.label}`,
      });
    }
  }
  if (bodySchema) {
    for (const hostile of hostileBodies(bodySchema, baseBody)) {
      out.push(bodyRequest(method, plainPath(), hostile, json(hostile.value)));
    }
  }
  // Whole-body attacks go to every write, whether or not it documents a body.
  if (method !== 'GET' && method !== 'HEAD') {
    for (const attack of bodyAttacks(baseBody)) out.push({ method, path: plainPath(), ...attack });
  }
  return out;
}

function bodyRequest(
  method: string,
  path: string,
  hostile: Hostile,
  encoded: { headers: Record<string, string>; body: string },
): FuzzRequest {
  return { method, path, ...encoded, mustFail: hostile.mustFail, label: `body ${hostile.label}` };
}

const PATH_VALUES = [
  '0',
  '-1',
  '1.5',
  '9007199254740993',
  '99999999999999999999',
  'abc',
  '..',
  '%2e%2e',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '%E2%80%AEevil',
  'null',
  '%ZZ',
  'x'.repeat(101),
];

function bodyAttacks(baseBody: unknown): Omit<FuzzRequest, 'method' | 'path'>[] {
  const deep = '['.repeat(20_000) + ']'.repeat(20_000);
  const base = JSON.stringify(baseBody ?? {});
  const attack = (label: string, body: string | Buffer, contentType = 'application/json') => ({
    headers: { 'content-type': contentType },
    body,
    mustFail: true,
    label,
  });
  return [
    attack('malformed JSON', '{"a":'),
    attack('JSON with a trailing comma', '{"a":1,}'),
    attack('deeply nested arrays', deep),
    attack('2 MB body', Buffer.alloc(2 * 1024 * 1024, 'a')),
    attack('text/plain body', base, 'text/plain'),
    attack('form-encoded body', 'a=1&b=2', 'application/x-www-form-urlencoded'),
    attack('XML body', '<a>1</a>', 'application/xml'),
    {
      headers: { 'content-type': 'application/json' },
      body: base.replace(
        /^\{/,
        '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}},',
      ),
      mustFail: false,
      label: 'prototype pollution keys',
    },
  ];
}

async function send(
  agent: Agent,
  options: FuzzOptions,
  caller: FuzzCaller,
  request: FuzzRequest,
): Promise<FuzzFinding | undefined> {
  const url = new URL(options.origin);
  const description = `${request.method} ${request.path.slice(0, 160)} [${request.label}]`;
  const finding = (status: FuzzFinding['status'], problem: string, body = '') => ({
    caller: caller.name,
    request: description,
    status,
    problem,
    body: body.slice(0, 300),
  });
  const answer = await new Promise<{ status: number; body: string; type: string } | 'timeout' | Error>(
    (resolve) => {
      const outgoing = httpRequest(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: request.method,
          path: request.path,
          headers: {
            ...caller.headers,
            ...request.headers,
            ...(request.body !== undefined
              ? { 'content-length': String(Buffer.byteLength(request.body)) }
              : {}),
          },
          timeout: options.timeoutMs ?? 10_000,
        },
        (response) => {
          const type = String(response.headers['content-type'] ?? '');
          if (type.startsWith('text/event-stream')) {
            response.destroy();
            return resolve({ status: response.statusCode ?? 0, body: '', type });
          }
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), type }),
          );
          response.on('error', resolve);
        },
      );
      outgoing.on('timeout', () => {
        outgoing.destroy();
        resolve('timeout');
      });
      outgoing.on('error', (error) => resolve(error));
      if (request.body !== undefined) outgoing.write(request.body);
      outgoing.end();
    },
  );
  if (answer === 'timeout') return finding('timeout', 'no answer within the timeout');
  if (answer instanceof Error) {
    // The server may close a connection that sent 2 MB it refused before reading them; that is an answer.
    if (request.label === '2 MB body' && /EPIPE|ECONNRESET/.test(String(answer))) return undefined;
    return finding('error', `connection failed: ${answer.message}`);
  }
  if (STACK_TRACE.test(answer.body)) return finding(answer.status, 'stack trace in the body', answer.body);
  if (answer.status >= 500) return finding(answer.status, 'server error', answer.body);
  if (answer.status >= 400) {
    if (!isEnvelope(answer.body)) return finding(answer.status, 'error outside the envelope', answer.body);
    return undefined;
  }
  if (request.mustFail) return finding(answer.status, 'accepted input that breaks the schema', answer.body);
  return undefined;
}

function isEnvelope(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; fields?: unknown } };
    const error = parsed.error;
    if (!error || typeof error.code !== 'string' || typeof error.message !== 'string') return false;
    if (error.fields === undefined) return true;
    return (
      typeof error.fields === 'object' &&
      error.fields !== null &&
      Object.values(error.fields).every((value) => typeof value === 'string')
    );
  } catch {
    return false;
  }
}
