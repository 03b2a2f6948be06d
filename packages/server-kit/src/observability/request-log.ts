import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, written when it is answered (method, redacted URL, client address, status,
 * time), instead of Fastify's two (one on arrival, one on completion): half the serialising and writing
 * on every request. The 404 line Fastify adds, with the raw URL, is left out: the completion line says it.
 */
export class RequestLog extends LogController {
  override incomingRequest() {}

  override routeNotFound() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
