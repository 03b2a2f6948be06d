import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FakeReply } from './types.ts';

/** Writes an HTTP/1.1 answer straight onto a socket (an upgrade request not upgraded) and closes it. */
export function writeRawReply(socket: Duplex, reply: FakeReply): void {
  const body =
    typeof reply.body === 'string' || Buffer.isBuffer(reply.body) ? Buffer.from(reply.body) : Buffer.alloc(0);
  const reason = reasonPhrase(reply.reason) ?? STATUS_CODES[reply.status] ?? '';
  const headers = { ...reply.headers, 'content-length': String(body.length), connection: 'close' };
  const lines = Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((one) => `${name}: ${one}`),
  );
  socket.end(
    Buffer.concat([Buffer.from(`HTTP/1.1 ${reply.status} ${reason}\r\n${lines.join('\r\n')}\r\n\r\n`), body]),
  );
}

/** A reason phrase as HTTP allows it: the first line, in printable ASCII. */
export function reasonPhrase(reason: string | undefined): string | undefined {
  return reason?.split('\n')[0]?.replace(/[^\t\x20-\x7e]/g, '?');
}
