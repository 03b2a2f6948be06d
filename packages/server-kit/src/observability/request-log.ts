import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A write that polls (a site agent's check-in, every few seconds per agent): its successful fast
     * answers are sampled like reads; its errors and slow answers are still always logged.
     */
    routineLog?: boolean;
  }
}

/** A request slower than this is always logged, sampled or not. */
const SLOW_MS = 1_000;

/**
 * One log line per request, written when it is answered (method, redacted URL, client address, status,
 * time), instead of Fastify's two (one on arrival, one on completion). Errors (4xx, 5xx), writes and
 * slow requests are always logged; of the successful fast reads (and polls, `config.routineLog`), the
 * share `sample` (0 to 1) is: the busiest requests (health checks, polling, key-authenticated reads)
 * need not each cost a line.
 * The 404 line Fastify adds, with the raw URL, is left out: the completion line says it.
 */
export class RequestLog extends LogController {
  constructor(private readonly sample = 1) {
    super();
  }

  override incomingRequest() {}

  override routeNotFound() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) return reply.log.error({ ...line, err: error }, 'request errored');
    const routine =
      reply.statusCode < 400 &&
      (request.method === 'GET' || request.method === 'HEAD' || request.routeOptions.config.routineLog) &&
      line.responseTime < SLOW_MS;
    if (!routine || this.sample >= 1 || Math.random() < this.sample)
      reply.log.info(line, 'request completed');
  }
}
