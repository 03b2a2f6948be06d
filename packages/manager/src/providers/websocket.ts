import type { Socket } from 'node:net';
import { WebSocket } from 'ws';
import { tlsPolicyConnector, type TlsPolicy } from '@app/server-kit';
import { asTransportError } from './http.ts';
import { ProviderError } from './types.ts';

export interface WebSocketCall {
  /** `http(s)://…` of the endpoint, query included. */
  url: URL;
  headers: Record<string, string>;
  /** The subprotocol to ask for. */
  protocol: string;
  tls: TlsPolicy;
  /** Bound on connecting and the handshake. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/**
 * A WebSocket to a node. The connection is made first with the node's TLS policy (its pinned
 * fingerprint checked before anything is sent, as for every HTTP call), then the upgrade request —
 * whose headers and URL carry credentials — goes over it. An answer other than 101 is a
 * ProviderError with the status and reason phrase; transport failures are NodeUnreachableError.
 */
export async function openNodeWebSocket(call: WebSocketCall): Promise<WebSocket> {
  const what = `GET ${call.url.origin}${call.url.pathname}`;
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  try {
    const socket = await connect(call, signal);
    return await handshake(socket, call, what, signal);
  } catch (error) {
    throw asTransportError(error, what, call.signal);
  }
}

async function connect(call: WebSocketCall, signal: AbortSignal): Promise<Socket> {
  const connector = await tlsPolicyConnector(call.tls, { timeoutMs: call.timeoutMs });
  const { protocol, hostname, port } = call.url;
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  const defaultPort = protocol === 'https:' ? '443' : '80';
  return new Promise<Socket>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    connector({ hostname: host, protocol, port: port || defaultPort }, (error, socket) => {
      signal.removeEventListener('abort', onAbort);
      if (error) return reject(error);
      if (signal.aborted) return socket.destroy();
      resolve(socket);
    });
  });
}

function handshake(socket: Socket, call: WebSocketCall, what: string, signal: AbortSignal) {
  return new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(call.url, [call.protocol], {
      headers: call.headers,
      createConnection: () => socket,
    });
    const settle = (error?: unknown) => {
      signal.removeEventListener('abort', onAbort);
      ws.off('error', settle);
      if (!error) return resolve(ws);
      ws.on('error', () => undefined);
      ws.terminate();
      reject(error);
    };
    const onAbort = () => settle(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    ws.once('open', () => settle());
    ws.once('error', settle);
    ws.once('unexpected-response', (_request, response) => {
      response.resume();
      const reason = response.statusMessage || `HTTP ${response.statusCode}`;
      settle(new ProviderError(`${what}: ${reason}`, response.statusCode));
    });
  });
}
