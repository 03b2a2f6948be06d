import { Type } from 'typebox';
import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { ErrorEnvelope } from '../schemas.ts';

/** A readiness check that has not answered by then counts as failed: a hung pool is not ready. */
const READY_TIMEOUT_MS = 2_000;

const Status = Type.Object({ status: Type.String() });

/**
 * `GET <prefix>/livez` (the process answers) and `GET <prefix>/readyz` (and its database does: 503
 * otherwise), public and tiny: they say nothing about versions, hosts or the reason. Registered on the
 * root instance, outside the API's credential hooks, so a probe never needs a key.
 */
export function probeRoutes<DB>(app: FastifyInstance, prefix: string, db: Kysely<DB>) {
  app.get(
    `${prefix}/livez`,
    {
      config: { public: true },
      schema: { tags: ['Meta'], summary: 'Liveness: the process answers', response: { 200: Status } },
    },
    (_request, reply) => reply.send({ status: 'ok' }),
  );
  app.get(
    `${prefix}/readyz`,
    {
      config: { public: true },
      schema: {
        tags: ['Meta'],
        summary: 'Readiness: the service can reach its database (503 service_unavailable otherwise)',
        response: { 200: Status, 503: ErrorEnvelope },
      },
    },
    async () => {
      if (!(await reachable(db))) {
        throw new AppError(503, 'service_unavailable', 'Not ready.', undefined, { 'retry-after': '5' });
      }
      return { status: 'ready' };
    },
  );
}

async function reachable<DB>(db: Kysely<DB>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  const ping = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
