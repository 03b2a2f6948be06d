import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Ready-to-send bytes kept in a cache, with their compressed forms made on first demand. */
export interface CachedBody {
  body: Buffer;
  /** Strong validator: a hash of the exact bytes. */
  etag: string;
  gzip?: Buffer;
  br?: Buffer;
}

const MIN_COMPRESS_BYTES = 1024;

export const etagOf = (body: Buffer) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

/** Weak comparison, as If-None-Match asks for: `W/` is ignored, `*` matches anything. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === '*' || value === etag;
  });
}

const encodingChoices = new Map<string, 'br' | 'gzip' | undefined>();

/** The best encoding the client accepts; answers are memoised per header value (clients send few distinct ones). */
function preferredEncoding(request: FastifyRequest): 'br' | 'gzip' | undefined {
  const accept = request.headers['accept-encoding'];
  if (!accept) return undefined;
  if (encodingChoices.has(accept)) return encodingChoices.get(accept);
  const offered = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    offered.set(name!, q ? Number(q.slice(2)) || 0 : 1);
  }
  const choice =
    (offered.get('br') ?? 0) > 0
      ? 'br'
      : (offered.get('gzip') ?? offered.get('*') ?? 0) > 0
        ? 'gzip'
        : undefined;
  if (encodingChoices.size > 200) encodingChoices.clear();
  encodingChoices.set(accept, choice);
  return choice;
}

/**
 * Sends cached bytes: 304 when the client holds them (If-None-Match), else compressed as the client
 * prefers. The caller sets cache-control and vary first; the body is untyped, no serialiser runs.
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: CachedBody,
  contentType: string,
): FastifyReply {
  reply.header('etag', entry.etag);
  if (matchesEtag(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  reply.type(contentType);
  const encoding = entry.body.length >= MIN_COMPRESS_BYTES ? preferredEncoding(request) : undefined;
  if (encoding === 'br') {
    entry.br ??= brotliCompressSync(entry.body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length },
    });
    return reply.header('content-encoding', 'br').send(entry.br);
  }
  if (encoding === 'gzip') {
    entry.gzip ??= gzipSync(entry.body, { level: 6 });
    return reply.header('content-encoding', 'gzip').send(entry.gzip);
  }
  return reply.send(entry.body);
}
