import type { IncomingMessage, IncomingHttpHeaders } from 'node:http';

/** What a route handler sees: the parsed request, never the raw response. */
export interface FakeRequest {
  method: string;
  /** Path without the query string, percent-decoding left to the router. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  params: Record<string, string>;
  /** `tcp` or `unix` (which listener accepted the connection). */
  transport: Transport;
  raw: IncomingMessage;
}

export type Transport = 'tcp' | 'unix';

export type ReplyBody = string | Buffer | AsyncIterable<string | Buffer>;

/** What a route handler answers. `reason` overrides the HTTP reason phrase (Proxmox uses it). */
export interface FakeReply {
  status: number;
  reason?: string;
  headers?: Record<string, string | string[]>;
  body?: ReplyBody;
}

export type Handler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

/** An error a handler throws; each fake renders it in its own system's error format. */
export class FakeHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): FakeReply {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: value === undefined ? '' : JSON.stringify(value),
  };
}

export function emptyReply(status: number, headers: Record<string, string> = {}): FakeReply {
  return { status, headers, body: '' };
}
