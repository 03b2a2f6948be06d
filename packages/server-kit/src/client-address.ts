import type { FastifyRequest } from 'fastify';

/**
 * True when the client is on this host. `request.ip` is the socket peer unless TRUST_PROXY names that
 * peer, so a forged X-Forwarded-For from anywhere else never makes a caller look local.
 */
export function isLoopback(request: FastifyRequest): boolean {
  const address = request.ip.replace(/^::ffff:/, '');
  return address === '::1' || /^127\./.test(address);
}
