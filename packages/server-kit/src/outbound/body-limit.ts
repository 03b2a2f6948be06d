/** An answer larger than the reader takes. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`the answer is larger than ${formatBytes(limitBytes)}`);
  }
}

/** `4 MiB`, `512 KiB`, `100 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

interface BodyOf {
  headers: { get(name: string): string | null };
  /** A byte stream, by the members read here (undici's and the DOM library's stream types differ). */
  body: {
    getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> };
    cancel(): Promise<void>;
  } | null;
}

/**
 * Reads a fetch Response's body as text, stopping (and cancelling the rest) once it passes `maxBytes`:
 * an answer from a system we do not control never fills the memory.
 */
export async function readTextLimited(response: BodyOf, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const body = response.body;
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done || !value) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
