import { isIP } from 'node:net';
import type { Agent, Response } from 'undici';
import { guardedConnector, hostRefusalReason } from './guarded-connector.ts';
import { effectivePort, type HostAllowlist } from './host-allowlist.ts';
import { loadUndici } from './undici.ts';

/**
 * An outbound call that did not get an answer: refused by the guard (address, scheme, redirect),
 * unreachable, timed out, TLS failure. The message is the detail for the log; what a client is told
 * should not depend on it (it would tell open ports from closed ones).
 */
export class OutboundError extends Error {
  override name = 'OutboundError';
}

/** The answer of an outbound call (undici's Response). */
export type OutboundResponse = Response;

export interface GuardedClientOptions {
  allowlist: HostAllowlist;
  /** Redirects followed per call (default 5). */
  maxRedirects?: number;
  /** Bound on each connection's set-up (default 5 s). */
  connectTimeoutMs?: number;
}

export interface GuardedRequest {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** False: a redirect is answered as it is (default: followed within the policy). */
  followRedirects?: boolean;
}

type Fetch = Awaited<ReturnType<typeof loadUndici>>['fetch'];

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const describe = (error: unknown): string => {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
};

/**
 * The one client for outbound calls to addresses a non-admin chooses (image references, the token
 * realms and redirects they lead to). Every connection — the first and each redirect's — goes through
 * the guard (internal addresses refused after resolution unless the host is allowlisted); plain HTTP
 * only to allowlisted hosts; a bounded number of redirects, credentials dropped when one leaves the
 * origin. Any failure is an OutboundError.
 */
export class GuardedClient {
  private agent: Promise<Agent> | undefined;
  private readonly maxRedirects: number;

  constructor(private readonly options: GuardedClientOptions) {
    this.maxRedirects = options.maxRedirects ?? 5;
  }

  private dispatcher(): Promise<Agent> {
    this.agent ??= (async () => {
      const { Agent } = await loadUndici();
      const connect = await guardedConnector(this.options.allowlist, this.options.connectTimeoutMs ?? 5_000);
      return new Agent({ connect, connections: 4 });
    })();
    return this.agent;
  }

  /** True when plain HTTP (and any address) to this URL's host and port is allowed. */
  allowlisted(url: URL): boolean {
    return this.options.allowlist.allows(url.hostname, effectivePort(url));
  }

  /**
   * Why a call to `target` would be refused now — its scheme, or its host's address after resolution —
   * or undefined; for a check when an address is saved (the call is guarded again when it is made).
   */
  async refusal(target: string | URL): Promise<string | undefined> {
    const url = new URL(target);
    if (this.allowlisted(url)) return undefined;
    const bare = url.hostname.replace(/^\[|\]$/g, '');
    const reason = await hostRefusalReason(bare);
    if (reason) return isIP(bare) ? `${bare} is ${reason}` : reason;
    return url.protocol === 'https:' ? undefined : schemeRefusal(url);
  }

  /** A GET that follows redirects within the policy (unless told not to). The caller reads or cancels the body. */
  async get(target: string | URL, request: GuardedRequest = {}): Promise<Response> {
    let url = new URL(target);
    let headers = { ...request.headers };
    const { fetch, dispatcher } = await this.transport();
    for (let hop = 0; ; hop++) {
      this.checkScheme(url);
      const response = await this.send(fetch, dispatcher, url, { headers, signal: request.signal });
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || !location || request.followRedirects === false) return response;
      await response.body?.cancel().catch(() => undefined);
      if (hop >= this.maxRedirects) throw new OutboundError(`more than ${this.maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new OutboundError(`a redirect to an invalid location: ${location}`);
      }
      if (next.origin !== url.origin) headers = withoutCredentials(headers);
      url = next;
    }
  }

  /** A POST of `body`; a redirect is answered as it is, not followed. The caller reads or cancels the body. */
  async post(target: string | URL, body: string, request: GuardedRequest = {}): Promise<Response> {
    const url = new URL(target);
    this.checkScheme(url);
    const { fetch, dispatcher } = await this.transport();
    return this.send(fetch, dispatcher, url, { method: 'POST', body, ...request });
  }

  private async transport() {
    const [{ fetch }, dispatcher] = await Promise.all([loadUndici(), this.dispatcher()]);
    return { fetch, dispatcher };
  }

  private async send(
    fetch: Fetch,
    dispatcher: Agent,
    url: URL,
    init: {
      method?: string;
      body?: string;
      headers?: Record<string, string>;
      signal?: AbortSignal | undefined;
    },
  ): Promise<Response> {
    const { signal, ...rest } = init;
    try {
      return await fetch(url, { ...rest, redirect: 'manual', dispatcher, ...(signal ? { signal } : {}) });
    } catch (error) {
      throw new OutboundError(`${init.method ?? 'GET'} ${url.origin}${url.pathname}: ${describe(error)}`);
    }
  }

  async close(): Promise<void> {
    if (this.agent) await (await this.agent).close();
  }

  private checkScheme(url: URL) {
    if (url.protocol === 'https:') return;
    if (url.protocol === 'http:' && this.allowlisted(url)) return;
    throw new OutboundError(schemeRefusal(url));
  }
}

const schemeRefusal = (url: URL) =>
  `${url.protocol}//${url.host} is not allowed (https only, http for allowlisted hosts)`;

const withoutCredentials = (headers: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) => !['authorization', 'cookie'].includes(name.toLowerCase())),
  );
