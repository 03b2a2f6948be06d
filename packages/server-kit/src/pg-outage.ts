import type pg from 'pg';
import { DatabaseUnavailableError, isLostDatabaseConnection } from './errors.ts';

/** The part of a pool client that Kysely and the prepared reads use. */
export type OutageReportingClient = Pick<pg.PoolClient, 'query' | 'release'>;

const wrapped = new WeakMap<pg.PoolClient, OutageReportingClient>();

/**
 * `client` whose queries fail with a DatabaseUnavailableError when the connection is lost (the server
 * stopped or reset it mid-query: pg then rejects with the socket's own error, ECONNRESET or EPIPE, or
 * with words of its own), so callers answer 503 rather than 500. Any other error is passed on as it is.
 * One wrapper per client: Kysely keeps its connection state by client.
 */
export function reportingOutages(client: pg.PoolClient): OutageReportingClient {
  let reporting = wrapped.get(client);
  if (!reporting) {
    reporting = {
      query: ((...args: Parameters<pg.PoolClient['query']>) => {
        const result = (client.query as (...a: unknown[]) => unknown)(...args);
        // A cursor (a submittable) reports its errors itself; a promise is the query's outcome.
        return result instanceof Promise
          ? result.catch((error: unknown) => {
              throw isLostDatabaseConnection(error) ? new DatabaseUnavailableError(error) : error;
            })
          : result;
      }) as pg.PoolClient['query'],
      release: (destroy?: boolean | Error) => client.release(destroy),
    };
    wrapped.set(client, reporting);
  }
  return reporting;
}
