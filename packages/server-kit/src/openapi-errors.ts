import type { RouteOptions } from 'fastify';
import { ErrorEnvelope } from './schemas.ts';

/** Error codes by HTTP status, e.g. `{ 404: ['not_found'] }`. */
export type ErrorCodes = Record<number, readonly string[]>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Errors of the route's own rules, for its entry in the OpenAPI document (e.g. `{409: ['has_nodes']}`). */
    errors?: ErrorCodes;
    /** No credential is checked on this route (probes, the documents): no 401 or 403 in its entry. */
    public?: boolean;
  }
}

const ANY_ROUTE: ErrorCodes = {
  400: ['invalid_request'],
  429: ['rate_limited'],
  500: ['internal_error'],
  503: ['service_unavailable'],
};
const WITH_PATH_PARAMS: ErrorCodes = { 404: ['not_found'], 414: ['uri_too_long'] };
const WITH_BODY: ErrorCodes = { 413: ['payload_too_large'], 415: ['unsupported_media_type'] };

const GUARD_ERRORS = Symbol('errors');

/**
 * A route guard (an onRequest or preHandler hook) that names the errors it answers with, so every route
 * it guards lists them in the OpenAPI document.
 */
export function guardWithErrors<Guard extends object>(errors: ErrorCodes, guard: Guard): Guard {
  return Object.assign(guard, { [GUARD_ERRORS]: errors });
}

function guardsErrors(route: RouteOptions): ErrorCodes[] {
  return [route.onRequest, route.preHandler]
    .flat()
    .map((hook) => (hook as { [GUARD_ERRORS]?: ErrorCodes } | undefined)?.[GUARD_ERRORS])
    .filter((errors) => errors !== undefined);
}

/** Merges code lists status by status, keeping the first-seen order and no duplicates. */
export function mergeErrors(...lists: (ErrorCodes | undefined)[]): ErrorCodes {
  const merged: Record<number, string[]> = {};
  for (const list of lists) {
    for (const [status, codes] of Object.entries(list ?? {})) {
      const known = (merged[Number(status)] ??= []);
      for (const code of codes) if (!known.includes(code)) known.push(code);
    }
  }
  return merged;
}

/**
 * The error answers of one route for the OpenAPI document: those every route can give (bad input,
 * rate limit, outage), those its shape implies (path parameters, a body), those its guards name
 * (guardWithErrors), those `extra` adds (the credential checks) and those it declares in `config.errors`. Each is the envelope with its codes as an enum.
 */
export function errorResponses(route: RouteOptions, extra: ErrorCodes | undefined) {
  const schema = route.schema as { params?: unknown; body?: unknown } | undefined;
  const codes = mergeErrors(
    ANY_ROUTE,
    schema?.params ? WITH_PATH_PARAMS : undefined,
    schema?.body ? WITH_BODY : undefined,
    ...guardsErrors(route),
    extra,
    (route.config as { errors?: ErrorCodes } | undefined)?.errors,
  );
  return Object.fromEntries(
    Object.entries(codes)
      .filter(([, list]) => list.length > 0)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([status, list]) => [
        status,
        {
          ...ErrorEnvelope,
          description: `Error: ${list.join(', ')}`,
          properties: {
            error: {
              ...ErrorEnvelope.properties.error,
              properties: {
                ...ErrorEnvelope.properties.error.properties,
                code: { type: 'string', enum: list },
              },
            },
          },
        },
      ]),
  );
}
