import { createHash, randomBytes } from 'node:crypto';

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `decodeURIComponent` that returns the input unchanged when it is not valid percent-encoding. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Parses a JSON body; `undefined` marks invalid JSON (each fake words that error its own way). */
export function parseJsonBody(body: Buffer): { value: unknown } | undefined {
  try {
    return { value: body.length ? JSON.parse(body.toString('utf8')) : undefined };
  } catch {
    return undefined;
  }
}
