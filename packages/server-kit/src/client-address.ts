import type { FastifyRequest } from 'fastify';

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

/**
 * True when the client is on this host: a loopback socket peer that sent no forwarding header, or the
 * loopback client a TRUST_PROXY peer reports in X-Forwarded-For. A request that carries `Forwarded`,
 * `X-Forwarded-For` or `X-Real-IP` from any other peer came through a proxy we do not trust — behind a
 * reverse proxy on the same host every client would otherwise look local — so it is never local.
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  const headers = request.headers;
  const forwarded = FORWARDING_HEADERS.some((name) => headers[name] !== undefined);
  // `ips` lists the socket peer and every hop a trusted proxy vouched for; more than one entry means the
  // peer is in TRUST_PROXY and `ip` is the client it named.
  if (forwarded && !(request.ips && request.ips.length > 1)) return false;
  return isLoopbackAddress(request.ip);
}

export function isLoopbackAddress(address: string): boolean {
  const plain = address.replace(/^::ffff:/, '');
  return plain === '::1' || /^127\./.test(plain);
}
