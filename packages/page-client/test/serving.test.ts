import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '@app/translator/testing';
import { clientBundle } from '../build.ts';

describe('the translator serves the page client', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.stop());

  it('at a stable URL with a short cache and at a content-hashed URL cached for a year', async () => {
    const { code, hash } = await clientBundle();
    const stable = await fetch(`${harness.url}/client.js`);
    expect(stable.status).toBe(200);
    expect(stable.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(stable.headers.get('cache-control')).toBe('public, max-age=300');
    expect(stable.headers.get('access-control-allow-origin')).toBe('*');
    expect(await stable.text()).toBe(code);

    const version = await (await fetch(`${harness.url}/client-version`)).json();
    expect(version).toEqual({ url: `/client.${hash}.js`, hash });
    const pinned = await fetch(harness.url + version.url);
    expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await pinned.text()).toBe(code);
    expect((await fetch(`${harness.url}/client.000000000000.js`)).status).toBe(404);
  });

  it('serves the in-page editor apart: visitors never download it', async () => {
    const { code, editor } = await clientBundle();
    expect(code).not.toContain('Save and mark reviewed');
    const answer = await fetch(`${harness.url}/client-editor.js`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const text = await answer.text();
    expect(text).toBe(editor);
    expect(text).toContain('Save and mark reviewed');
  });

  it('answers 304 to a matching ETag and gzip to clients that accept it', async () => {
    const first = await fetch(`${harness.url}/client.js`);
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${harness.url}/client.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const raw = await new Promise<Buffer>((resolve, reject) => {
      import('node:http').then(({ get }) =>
        get(`${harness.url}/client.js`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
          expect(response.headers['content-encoding']).toBe('gzip');
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(Buffer.concat(chunks)));
        }).on('error', reject),
      );
    });
    expect(raw.length).toBeLessThan(8192);
    expect(gunzipSync(raw).toString()).toBe((await clientBundle()).code);
  });
});
