import { parseEngineHost } from '../../nodes/node-rules.ts';
import { formatBytes, type TlsPolicy } from '@app/server-kit';
import type { Response } from 'undici';
import { asTransportError, httpCall, httpUpgrade, readJson, readText, type HttpEndpoint } from '../http.ts';
import { NodeUnreachableError, ProviderError } from '../types.ts';

/** Bounds on an image pull's progress stream: all of it, and one line. */
export const MAX_PULL_OUTPUT_BYTES = 64 * 1024 * 1024;
export const MAX_PULL_LINE_BYTES = 1024 * 1024;

/** The API level we speak; older engines (Podman 4.0–4.1: 1.40) are met at theirs. */
const CLIENT_MAX_VERSION = '1.47';
const VERSION_CACHE_MS = 5 * 60_000;
const versions = new Map<string, { version: string; podman: boolean; at: number }>();

export class EngineApiError extends ProviderError {
  override name = 'EngineApiError';
}

/** The daemon's refusal, with its message (JSON `{message}` or plain text). */
export async function engineFailure(
  response: Response,
  what: string,
  signal: AbortSignal | undefined,
): Promise<EngineApiError> {
  const text = await readText(response, what, signal);
  let message = text;
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    // plain-text error body
  }
  return new EngineApiError(`${what}: ${message.trim() || `HTTP ${response.status}`}`, response.status);
}

const compare = (a: string, b: string) => {
  const [aMajor = 0, aMinor = 0] = a.split('.').map(Number);
  const [bMajor = 0, bMinor = 0] = b.split('.').map(Number);
  return aMajor - bMajor || aMinor - bMinor;
};

export interface EngineCall {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Longer bound for calls that stream (image pulls). */
  timeoutMs?: number;
}

/**
 * A Docker Engine API client (also Podman's compatible API) over a unix socket, tcp, http or https.
 * Negotiates the version like the official clients: `/_ping`, then min(ours, the daemon's).
 */
export class EngineClient {
  private readonly endpoint: HttpEndpoint;
  private readonly key: string;

  constructor(
    apiUrl: string,
    tls: TlsPolicy,
    private readonly timeoutMs: number,
  ) {
    const host = parseEngineHost(apiUrl);
    if (!host) throw new NodeUnreachableError(`"${apiUrl}" is not a container-engine host`);
    this.endpoint =
      host.kind === 'unix'
        ? { origin: 'http://docker', socketPath: host.socketPath, tls: { verify: true } }
        : { origin: host.origin, tls };
    this.key = `${apiUrl}|${tls.verify}|${tls.fingerprint ?? ''}`;
  }

  /** The negotiated API version and whether the daemon is Podman. */
  async negotiate(signal?: AbortSignal): Promise<{ version: string; podman: boolean }> {
    const cached = versions.get(this.key);
    if (cached && Date.now() - cached.at < VERSION_CACHE_MS) return cached;
    const response = await httpCall(this.endpoint, {
      method: 'GET',
      path: '/_ping',
      timeoutMs: this.timeoutMs,
      signal,
    });
    await readText(response, 'GET /_ping', signal);
    if (response.status !== 200)
      throw new EngineApiError(`GET /_ping: HTTP ${response.status}`, response.status);
    const server = response.headers.get('api-version') ?? '1.24';
    const result = {
      version: compare(server, CLIENT_MAX_VERSION) < 0 ? server : CLIENT_MAX_VERSION,
      podman: response.headers.has('libpod-api-version'),
      at: Date.now(),
    };
    versions.set(this.key, result);
    return result;
  }

  /** The call's path under the negotiated `/v1.xx` prefix, with its query. */
  private async versionedPath(call: EngineCall) {
    const { version } = await this.negotiate(call.signal);
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined)
        query.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
    }
    const search = query.toString();
    return `/v${version}${call.path}${search ? `?${search}` : ''}`;
  }

  /** Sends a call under the negotiated `/v1.xx` prefix; the caller reads (or cancels) the body. */
  async send(call: EngineCall) {
    return httpCall(this.endpoint, {
      method: call.method,
      path: await this.versionedPath(call),
      headers: call.body === undefined ? {} : { 'content-type': 'application/json' },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      timeoutMs: call.timeoutMs ?? this.timeoutMs,
      signal: call.signal,
    });
  }

  /** A POST the daemon answers by hijacking the connection (`Upgrade: tcp`): the raw stream. */
  async hijack(call: Omit<EngineCall, 'method'>) {
    return httpUpgrade(this.endpoint, {
      method: 'POST',
      path: await this.versionedPath({ ...call, method: 'POST' }),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call.body ?? {}),
      protocol: 'tcp',
      timeoutMs: call.timeoutMs ?? this.timeoutMs,
      signal: call.signal,
    });
  }

  /** A call whose answer is JSON (or empty); statuses in `ok` succeed, others throw with the daemon's message. */
  async json<T>(
    call: EngineCall,
    ok: number[] = [200, 201, 204, 304],
  ): Promise<{ status: number; body: T | undefined }> {
    const response = await this.send(call);
    const what = `${call.method} ${call.path}`;
    if (!ok.includes(response.status)) throw await engineFailure(response, what, call.signal);
    if (response.status === 204 || response.status === 304 || call.method === 'HEAD') {
      await response.body?.cancel();
      return { status: response.status, body: undefined };
    }
    return { status: response.status, body: await readJson<T>(response, what, call.signal) };
  }

  /**
   * Pulls an image, reporting each progress object; throws on an error status or an in-stream
   * `errorDetail` (the status is already 200 once output began).
   */
  async pull(
    reference: { repo: string; tag: string },
    onProgress: (line: PullProgress) => Promise<void>,
    signal: AbortSignal,
  ) {
    const response = await this.send({
      method: 'POST',
      path: '/images/create',
      query: { fromImage: reference.repo, tag: reference.tag },
      signal,
      timeoutMs: 30 * 60_000,
    });
    const what = `pull ${reference.repo}:${reference.tag}`;
    if (response.status !== 200) throw await engineFailure(response, what, signal);
    let pending = '';
    let received = 0;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body ?? []) {
        received += (chunk as Uint8Array).byteLength;
        if (received > MAX_PULL_OUTPUT_BYTES) {
          throw new EngineApiError(
            `${what}: the pull output passed ${formatBytes(MAX_PULL_OUTPUT_BYTES)}; the pull was stopped`,
          );
        }
        pending += decoder.decode(chunk as Uint8Array, { stream: true });
        const lines = pending.split(/\r?\n/);
        pending = lines.pop() ?? '';
        if ([pending, ...lines].some((line) => line.length > MAX_PULL_LINE_BYTES)) {
          throw new EngineApiError(
            `${what}: a pull-progress line longer than ${formatBytes(MAX_PULL_LINE_BYTES)}; the pull was stopped`,
          );
        }
        for (const line of lines) await this.progressLine(line, onProgress, what);
      }
    } catch (error) {
      if (error instanceof EngineApiError) throw error;
      throw asTransportError(error, what, signal);
    }
    await this.progressLine(pending, onProgress, what);
  }

  private async progressLine(line: string, onProgress: (line: PullProgress) => Promise<void>, what: string) {
    if (!line.trim()) return;
    let progress: PullProgress;
    try {
      progress = JSON.parse(line) as PullProgress;
    } catch {
      return;
    }
    if (progress.errorDetail || progress.error) {
      throw new EngineApiError(`${what}: ${progress.errorDetail?.message ?? progress.error}`);
    }
    await onProgress(progress);
  }
}

export interface PullProgress {
  status?: string;
  id?: string;
  progress?: string;
  progressDetail?: { current?: number; total?: number };
  errorDetail?: { message: string };
  error?: string;
}

/** `nginx`, `nginx:1.27`, `ghcr.io:443/o/r:tag`, `r@sha256:…` → repository and tag (or digest). */
export function splitReference(reference: string): { repo: string; tag: string } {
  const at = reference.indexOf('@');
  if (at > 0) return { repo: reference.slice(0, at), tag: reference.slice(at + 1) };
  const slash = reference.lastIndexOf('/');
  const colon = reference.lastIndexOf(':');
  if (colon > slash) return { repo: reference.slice(0, colon), tag: reference.slice(colon + 1) };
  return { repo: reference, tag: 'latest' };
}

export const apiAtLeast = (version: string, wanted: string) => compare(version, wanted) >= 0;
