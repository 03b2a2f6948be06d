import type { Duplex } from 'node:stream';
import type { Agent, Dispatcher, Response } from 'undici';
import {
  BodyTooLargeError,
  formatBytes,
  loadUndici,
  readTextLimited,
  tlsPolicyConnector,
  type TlsPolicy,
} from '@app/server-kit';
import { NodeUnreachableError, ProviderError, type NodeConnection } from './types.ts';

export interface HttpEndpoint {
  /** `http(s)://host:port`; for a unix socket any origin (the Host header the daemon sees). */
  origin: string;
  socketPath?: string;
  tls: TlsPolicy;
}

/** A node's TLS policy: its pinned fingerprint, else verification against the CAs unless turned off. */
export const tlsPolicyOf = (node: Pick<NodeConnection, 'tlsVerify' | 'tlsFingerprint'>): TlsPolicy => ({
  verify: node.tlsVerify ?? true,
  fingerprint: node.tlsFingerprint,
});

export interface HttpCall {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Bound on the whole call; the answer must start and finish within it. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

const CONNECT_TIMEOUT_MS = 5_000;
const agents = new Map<string, Promise<Agent>>();

function agentFor(endpoint: HttpEndpoint): Promise<Agent> {
  const key = `${endpoint.socketPath ?? endpoint.origin}|${endpoint.tls.verify}|${endpoint.tls.fingerprint ?? ''}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = (async () => {
      const { Agent } = await loadUndici();
      const connect = await tlsPolicyConnector(endpoint.tls, {
        timeoutMs: CONNECT_TIMEOUT_MS,
        socketPath: endpoint.socketPath,
      });
      return new Agent({ connect, keepAliveTimeout: 10_000, connections: 16 });
    })();
    // A pool that could not be made is made again by the next call, not kept as a failure.
    agent.catch(() => agents.delete(key));
    agents.set(key, agent);
  }
  return agent;
}

/** Closes every pooled connection to nodes (on shutdown). */
export async function closeHttpAgents(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.allSettled(all.map(async (agent) => (await agent).destroy()));
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ENOENT',
  'EACCES',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'E_CERTIFICATE_PIN',
]);

/** Certificate failures, said so plainly with what the administrator can do about them. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
]);

function transportDetail(code: string, cause: { message?: string } | undefined): string {
  if (code === 'E_CERTIFICATE_PIN') return cause?.message ?? code;
  if (CERTIFICATE_CODES.has(code)) {
    return `the certificate is not trusted (${code}): pin its SHA-256 fingerprint on the node, or turn TLS verification off`;
  }
  return code;
}

/** Turns transport failures (and our own timeout) into NodeUnreachableError; lets the caller's abort through. */
export function asTransportError(error: unknown, what: string, callerSignal?: AbortSignal): unknown {
  if (callerSignal?.aborted) return callerSignal.reason ?? error;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError' || (code && UNREACHABLE_CODES.has(code))) {
    const detail =
      name === 'TimeoutError' || name === 'AbortError' ? 'timed out' : transportDetail(code!, cause);
    return new NodeUnreachableError(`${what}: ${detail}`);
  }
  return error;
}

/**
 * One bounded HTTP call to a node (undici fetch: it keeps the status line's reason phrase, where
 * Proxmox VE puts its error text). The caller must read or cancel the body.
 */
export async function httpCall(endpoint: HttpEndpoint, call: HttpCall): Promise<Response> {
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  const url = new URL(call.path, endpoint.origin);
  const [{ fetch }, dispatcher] = await Promise.all([loadUndici(), agentFor(endpoint)]);
  try {
    return await fetch(url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      dispatcher,
      signal,
    });
  } catch (error) {
    throw asTransportError(error, `${call.method} ${url.origin}${url.pathname}`, call.signal);
  }
}

/** The most of one answer a node or engine is read for (a node is not ours to trust with our memory). */
export const MAX_NODE_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * Reads a whole body, at most MAX_NODE_ANSWER_BYTES (a larger one is a ProviderError saying so), mapping
 * a stall or a dropped connection to NodeUnreachableError.
 */
export async function readText(response: Response, what: string, signal?: AbortSignal): Promise<string> {
  try {
    return await readTextLimited(response, MAX_NODE_ANSWER_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new ProviderError(
        `${what}: the answer is larger than ${formatBytes(MAX_NODE_ANSWER_BYTES)}; it was not read`,
        response.status,
      );
    }
    throw asTransportError(error, what, signal);
  }
}

/** Reads a JSON body, or throws a ProviderError naming the call. */
export async function readJson<T>(response: Response, what: string, signal?: AbortSignal): Promise<T> {
  const text = await readText(response, what, signal);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProviderError(`${what}: answer is not JSON (HTTP ${response.status})`, response.status);
  }
}

/**
 * A call answered `101 Switching Protocols` (Docker's hijacked exec stream, `Upgrade: tcp`): the raw
 * connection, paused until read. The timeout bounds the answer only, not the stream after it.
 */
export async function httpUpgrade(
  endpoint: HttpEndpoint,
  call: Omit<HttpCall, 'method'> & { method: 'GET' | 'POST'; protocol: string },
): Promise<Duplex> {
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  const url = new URL(call.path, endpoint.origin);
  const dispatcher = await agentFor(endpoint);
  try {
    // undici passes a body on to the request it sends; its types leave it out of upgrade's options.
    const { method, headers, body, protocol } = call;
    const options = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method,
      headers,
      body,
      protocol,
      signal,
    };
    const { socket } = await dispatcher.upgrade(options as Dispatcher.UpgradeOptions);
    return socket;
  } catch (error) {
    throw asTransportError(error, `${call.method} ${url.origin}${url.pathname}`, call.signal);
  }
}
