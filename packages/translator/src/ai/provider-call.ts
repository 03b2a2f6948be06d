import { loadUndici } from '@app/server-kit';
import type { AiCallRecorder } from '../observability/metrics.ts';
import type { AiConfig } from '../config.ts';
import { sleep } from '../common/time.ts';

/** A call that did not produce a usable answer. `retryable` for 429, 5xx, timeouts and network errors. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

const MAX_RETRY_AFTER_MS = 60_000;

function retryAfter(headers: Record<string, string | string[] | undefined>): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_RETRY_AFTER_MS);
  const seconds = Number(headers['retry-after']);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  return undefined;
}

/** The message of a refusal: OpenAI's `error.message`, DeepL's `message`, else the start of the text. */
function refusalMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string }; message?: string };
    return body.error?.message ?? body.message ?? text.slice(0, 300);
  } catch {
    return text.slice(0, 300);
  }
}

export interface ProviderCall {
  url: string;
  authorization: string;
  body: unknown;
  signal?: AbortSignal | undefined;
  timeoutMs: number;
}

/**
 * POSTs JSON to a translation provider and answers the reply's text; throws ProviderError when the
 * call fails: retryable when unreachable, 429 or 5xx, not for another refusal (with the provider's words).
 */
export async function postToProvider(call: ProviderCall, metrics?: AiCallRecorder): Promise<string> {
  const signal = call.signal
    ? AbortSignal.any([call.signal, AbortSignal.timeout(call.timeoutMs)])
    : AbortSignal.timeout(call.timeoutMs);
  const { request } = await loadUndici();
  let response;
  try {
    response = await request(call.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: call.authorization },
      body: JSON.stringify(call.body),
      signal,
    });
  } catch (error) {
    if (call.signal?.aborted) throw error;
    metrics?.aiCall('unreachable');
    throw new ProviderError(`AI provider unreachable: ${(error as Error).message}`, true);
  }
  const text = await response.body.text().catch(() => '');
  const status = response.statusCode;
  if (status === 429 || status >= 500) {
    metrics?.aiCall('retryable_error');
    throw new ProviderError(`AI provider answered ${status}`, true, retryAfter(response.headers));
  }
  if (status >= 400) {
    metrics?.aiCall('refused');
    throw new ProviderError(
      `AI provider refused the request (${status}): ${refusalMessage(text)}`,
      false,
      undefined,
      status,
    );
  }
  return text;
}

/**
 * A call with retries: on a retryable error waits (Retry-After when given, else an exponential
 * back-off from `backoffMs` with jitter) and tries again, up to `maxAttempts` calls.
 */
export async function withRetries<T>(
  config: Pick<AiConfig, 'backoffMs' | 'maxAttempts'>,
  batch: { signal?: AbortSignal | undefined },
  call: (attempt: number) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(attempt);
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.retryable || attempt >= config.maxAttempts) throw error;
      if (batch.signal?.aborted) throw error;
      const backoff = config.backoffMs * 2 ** (attempt - 1);
      await sleep(error.retryAfterMs ?? backoff * (0.75 + Math.random() / 2), batch.signal);
    }
  }
}
