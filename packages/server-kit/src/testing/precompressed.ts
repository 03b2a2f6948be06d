// Tests of the services' precompressed static files (web-kit/build/precompress.mjs writes them at build time).
import { writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect } from 'vitest';

/** Writes `path` and its `.br` and `.gz` copies, as the build does. */
export function writePrecompressed(path: string, content: string): void {
  writeFileSync(path, content);
  writeFileSync(`${path}.br`, brotliCompressSync(content));
  writeFileSync(`${path}.gz`, gzipSync(content));
}

/**
 * Asks for `url` as a browser that takes br, one that takes only gzip and one that takes neither: each
 * gets `content` in its encoding, and every answer says it varies by Accept-Encoding. Answers the
 * headers of the brotli answer, for further checks.
 */
export async function expectPrecompressed(url: string, content: string): Promise<Headers> {
  const answers = new Map<string, Headers>();
  for (const [accepted, encoding] of [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['identity', null],
  ] as const) {
    const answer = await fetch(url, { headers: { 'accept-encoding': accepted } });
    expect(answer.status, url).toBe(200);
    expect(answer.headers.get('content-encoding'), `${url} for ${accepted}`).toBe(encoding);
    expect(answer.headers.get('vary'), url).toMatch(/accept-encoding/i);
    expect(await answer.text()).toBe(content);
    answers.set(accepted, answer.headers);
  }
  return answers.get('br, gzip')!;
}
