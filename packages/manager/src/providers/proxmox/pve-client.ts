import { sha256Hex, type TlsPolicy } from '@app/server-kit';
import type { WebSocket } from 'ws';
import { httpCall, readJson, readText, type HttpEndpoint } from '../http.ts';
import { openNodeWebSocket } from '../websocket.ts';
import { NodeUnreachableError, ProviderError } from '../types.ts';

export type PveParams = Record<string, string | number | boolean | undefined>;

/** A Proxmox VE answer other than 200: status, the error text, and per-parameter errors. */
export class PveApiError extends ProviderError {
  constructor(
    message: string,
    status: number,
    readonly errors?: Record<string, string>,
  ) {
    super(message, status);
    this.name = 'PveApiError';
  }
}

export type PveAuth =
  { kind: 'token'; tokenId: string; secret: string } | { kind: 'ticket'; username: string; password: string };

interface Ticket {
  ticket: string;
  csrf: string;
  expiresAt: number;
}

/** Tickets live 2 h on the server; we renew after 90 minutes. */
const TICKET_LIFETIME_MS = 90 * 60_000;
const tickets = new Map<string, Ticket>();

/** `https://host:8006`, `https://host:8006/`, or `…/api2/json` → the `/api2/json` base. */
export function pveBase(apiUrl: string): string {
  return `${apiUrl.replace(/\/+$/, '').replace(/\/api2\/json$/, '')}/api2/json`;
}

/** Form encoding as the API wants it: booleans as 0/1, undefined left out. */
function form(params: PveParams): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    body.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return body;
}

/**
 * The Proxmox VE `/api2/json` client: API-token header or ticket login (cookie + CSRF header on
 * writes), form bodies, the `{data}` envelope, error text from the body or the reason phrase,
 * 595/596 (cluster member unreachable) as NodeUnreachableError. Every call is bounded.
 */
export class PveClient {
  private readonly endpoint: HttpEndpoint;
  private readonly basePath: string;
  private readonly base: string;

  constructor(
    apiUrl: string,
    tls: TlsPolicy,
    private readonly auth: PveAuth,
    private readonly timeoutMs: number,
  ) {
    this.base = pveBase(apiUrl);
    const url = new URL(this.base);
    this.basePath = url.pathname;
    this.endpoint = { origin: url.origin, tls };
  }

  get<T>(path: string, params: PveParams = {}, signal?: AbortSignal) {
    return this.call<T>('GET', path, params, signal);
  }
  post<T>(path: string, params: PveParams = {}, signal?: AbortSignal) {
    return this.call<T>('POST', path, params, signal);
  }
  put<T>(path: string, params: PveParams = {}, signal?: AbortSignal) {
    return this.call<T>('PUT', path, params, signal);
  }
  delete<T>(path: string, params: PveParams = {}, signal?: AbortSignal) {
    return this.call<T>('DELETE', path, params, signal);
  }

  private async call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    params: PveParams,
    signal?: AbortSignal,
    loginAgainOn401 = true,
  ): Promise<T> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(await this.authHeaders(method, signal)),
    };
    const write = method === 'POST' || method === 'PUT';
    const encoded = form(params).toString();
    if (write) headers['content-type'] = 'application/x-www-form-urlencoded';
    const what = `${method} ${path}`;
    const response = await httpCall(this.endpoint, {
      method,
      path: `${this.basePath}${path}${!write && encoded ? `?${encoded}` : ''}`,
      headers,
      body: write ? encoded : undefined,
      timeoutMs: this.timeoutMs,
      signal,
    });
    if (response.status === 401 && this.auth.kind === 'ticket' && loginAgainOn401) {
      // The cluster no longer takes the cached ticket (its auth key changed): one fresh login, once.
      await response.body?.cancel();
      tickets.delete(this.ticketKey());
      return this.call<T>(method, path, params, signal, false);
    }
    if (response.status === 595 || response.status === 596) {
      await response.body?.cancel();
      const member = /^\/nodes\/([^/]+)/.exec(path)?.[1];
      const who = member ? `Proxmox VE node ${decodeURIComponent(member)}` : 'A Proxmox VE cluster member';
      throw new NodeUnreachableError(
        `${who} is unreachable from its cluster (${response.statusText || response.status}): is it offline? (${what})`,
      );
    }
    if (response.status !== 200) {
      const text = await readText(response, what, signal);
      let body: { message?: string; errors?: Record<string, string> } = {};
      try {
        body = text ? (JSON.parse(text) as typeof body) : {};
      } catch {
        body = {};
      }
      if (response.status === 401 && this.auth.kind === 'ticket') tickets.delete(this.ticketKey());
      const detail = body.errors
        ? ` (${Object.entries(body.errors)
            .map(([key, value]) => `${key}: ${value}`)
            .join('; ')})`
        : '';
      const message = (body.message?.trim() || response.statusText || `HTTP ${response.status}`) + detail;
      throw new PveApiError(message, response.status, body.errors);
    }
    const body = await readJson<{ data: T }>(response, what, signal);
    return body.data;
  }

  /**
   * A WebSocket to `path` (a GET, `params` in the query, subprotocol `binary` as the PVE web UI asks),
   * authenticated like any call: pve-http-server runs its usual authentication before it upgrades,
   * so the API-token header works here as the `PVEAuthCookie` cookie does for a browser (which cannot
   * set headers on a WebSocket); a GET needs no CSRF token.
   */
  async websocket(path: string, params: PveParams, signal?: AbortSignal): Promise<WebSocket> {
    return openNodeWebSocket({
      url: new URL(`${this.basePath}${path}?${form(params).toString()}`, this.endpoint.origin),
      headers: await this.authHeaders('GET', signal),
      protocol: 'binary',
      tls: this.endpoint.tls,
      timeoutMs: this.timeoutMs,
      signal,
    });
  }

  /** The API-token header, or the ticket cookie (+ CSRF header on writes). */
  private async authHeaders(method: string, signal?: AbortSignal): Promise<Record<string, string>> {
    if (this.auth.kind === 'token') {
      return { authorization: `PVEAPIToken=${this.auth.tokenId}=${this.auth.secret}` };
    }
    const ticket = await this.ticket(signal);
    const cookie = `PVEAuthCookie=${encodeURIComponent(ticket.ticket)}`;
    return method === 'GET' ? { cookie } : { cookie, csrfpreventiontoken: ticket.csrf };
  }

  /** Tickets are cached per API URL, user and password (hashed), so a changed password logs in again. */
  private ticketKey() {
    return this.auth.kind === 'ticket'
      ? `${this.base}|${this.auth.username}|${sha256Hex(this.auth.password)}`
      : this.base;
  }

  /** Logs in with username and password (cached per API URL and user). */
  async ticket(signal?: AbortSignal): Promise<Ticket> {
    if (this.auth.kind !== 'ticket') throw new Error('token authentication has no ticket');
    const key = this.ticketKey();
    const cached = tickets.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached;
    const response = await httpCall(this.endpoint, {
      method: 'POST',
      path: `${this.basePath}/access/ticket`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form({ username: this.auth.username, password: this.auth.password }).toString(),
      timeoutMs: this.timeoutMs,
      signal,
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new PveApiError(
        `login as ${this.auth.username} failed: ${response.statusText || response.status}`,
        response.status,
      );
    }
    const body = await readJson<{ data: { ticket: string; CSRFPreventionToken: string } }>(
      response,
      'login',
      signal,
    );
    const ticket = {
      ticket: body.data.ticket,
      csrf: body.data.CSRFPreventionToken,
      expiresAt: Date.now() + TICKET_LIFETIME_MS,
    };
    tickets.set(key, ticket);
    return ticket;
  }
}

/** Token when `tokenId` names one (`user@realm!name`); otherwise `tokenId` is a user for ticket login. */
export function pveAuthFor(tokenId: string | null, secret: string | null): PveAuth | undefined {
  if (!tokenId || !secret) return undefined;
  return tokenId.includes('!')
    ? { kind: 'token', tokenId, secret }
    : { kind: 'ticket', username: tokenId, password: secret };
}
