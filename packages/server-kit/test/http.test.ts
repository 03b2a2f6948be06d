import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import {
  AppError,
  createHttpServer,
  MAX_JSON_DEPTH,
  MAX_JSON_STRING_LENGTH,
  validationFailed,
} from '../src/index.ts';

let slowStarted: () => void = () => undefined;

const build = (closeGraceMs?: number) => {
  const app = createHttpServer({
    logLevel: 'silent',
    trustProxy: [],
    ...(closeGraceMs ? { closeGraceMs } : {}),
  });
  app.post(
    '/items',
    { schema: { body: Type.Object({ name: Type.String(), count: Type.Integer() }) } },
    async (request) => ({
      data: request.body,
    }),
  );
  app.post(
    '/strict',
    {
      config: { validationError: { statusCode: 422, code: 'validation_failed' } },
      schema: { body: Type.Object({ siteId: Type.Integer() }) },
    },
    async () => ({ data: true }),
  );
  app.get('/rule', async () => {
    throw validationFailed({ hostname: 'must be a DNS label' });
  });
  app.put('/things/:name', async () => ({ data: true }));
  app.get('/teapot', async () => {
    throw new AppError(418, 'teapot', 'I am a teapot.');
  });
  app.get('/crash', async () => {
    throw new Error('database password is hunter2');
  });
  // 64 MiB streamed, as files are sent: the answer is in flight until the client has read it.
  app.get('/large', async (_request, reply) => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let left = 64;
    const body = new Readable({ read: () => void body.push(left-- > 0 ? chunk : null) });
    return reply.send(body);
  });
  app.get('/slow', async () => {
    slowStarted();
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { data: 'finished' };
  });
  return app;
};

describe('HTTP server errors and envelope', () => {
  it('answers schema violations with 400 invalid_request and the fields', async () => {
    const app = build();
    const response = await app.inject({ method: 'POST', url: '/items', payload: { count: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'invalid_request',
      fields: { name: 'is required', count: 'must be integer' },
    });
    const custom = await app.inject({ method: 'POST', url: '/strict', payload: {} });
    expect(custom.statusCode).toBe(422);
    expect(custom.json().error).toMatchObject({
      code: 'validation_failed',
      fields: { siteId: 'is required' },
    });
  });

  it('maps domain errors, bad JSON, unknown routes and crashes without leaking internals', async () => {
    const app = build();
    expect((await app.inject({ url: '/rule' })).json()).toEqual({
      error: {
        code: 'validation_failed',
        message: 'Some fields are invalid.',
        fields: { hostname: 'must be a DNS label' },
      },
    });
    expect((await app.inject({ url: '/teapot' })).statusCode).toBe(418);
    const badJson = await app.inject({
      method: 'POST',
      url: '/items',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(badJson.json().error.code).toBe('invalid_request');
    expect((await app.inject({ url: '/nowhere' })).json().error.code).toBe('not_found');
    const crash = await app.inject({ url: '/crash' });
    expect(crash.statusCode).toBe(500);
    expect(crash.json()).toEqual({ error: { code: 'internal_error', message: expect.any(String) } });
    expect(crash.body).not.toContain('hunter2');
  });

  it('answers malformed escapes and over-long path parameters in the envelope', async () => {
    const app = build();
    const badEscape = await app.inject({ url: '/things/%ZZ' });
    expect(badEscape.statusCode).toBe(400);
    expect(badEscape.json()).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
    const long = await app.inject({ method: 'PUT', url: `/things/${'x'.repeat(150)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ error: { code: 'uri_too_long', message: expect.any(String) } });
  });

  it('refuses NUL and over-long text anywhere in a JSON body, NUL in the URL, and non-JSON bodies', async () => {
    const app = build();
    app.post('/echo-any', async (request) => ({ data: request.body ?? null }));
    const post = (payload: string, type = 'application/json') =>
      app.inject({ method: 'POST', url: '/echo-any', headers: { 'content-type': type }, payload });
    const nul = await post(JSON.stringify({ deep: [{ name: 'a\u0000b' }] }));
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.message).toMatch(/NUL/);
    // An escaped backslash before "u0000" is ordinary text.
    expect((await post(JSON.stringify({ name: 'a\\u0000b' }))).json()).toEqual({
      data: { name: 'a\\u0000b' },
    });
    const long = await post(JSON.stringify({ list: ['x'.repeat(MAX_JSON_STRING_LENGTH + 1)] }));
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toMatch(/limited to 65536 characters/);
    expect((await post(JSON.stringify({ name: 'x'.repeat(MAX_JSON_STRING_LENGTH) }))).statusCode).toBe(200);
    const deep = await post('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1));
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error.message).toMatch(/nested at most 64 levels/);
    expect((await post('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).statusCode).toBe(200);
    const plain = await post('{"a":1}', 'text/plain');
    expect(plain.statusCode).toBe(415);
    expect(plain.json().error.code).toBe('unsupported_media_type');
    const nulUrl = await app.inject({ url: '/items%00' });
    expect(nulUrl.statusCode).toBe(400);
    expect(nulUrl.json().error.code).toBe('invalid_request');
  });

  it('answers requests the HTTP parser refuses in the envelope', async () => {
    const app = build();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    try {
      const response = await fetch(`http://127.0.0.1:${port}/items?q=${'x'.repeat(40_000)}`);
      expect(response.status).toBe(431);
      expect(await response.json()).toEqual({
        error: { code: 'headers_too_large', message: expect.any(String) },
      });
    } finally {
      await app.close();
    }
  });

  it('accepts an empty JSON body and strips prototype pollution', async () => {
    const app = build();
    app.post('/echo', async (request) => ({ data: request.body ?? null }));
    const empty = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.json()).toEqual({ data: null });
    const polluted = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":1,"__proto__":{"admin":true}}',
    });
    expect(polluted.json()).toEqual({ data: { a: 1 } });
  });

  it('finishes in-flight requests on close and then stops accepting', async () => {
    const app = build();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const inFlight = fetch(`http://127.0.0.1:${port}/slow`);
    await started;
    const closing = app.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: 'finished' });
    await closing;
    await expect(fetch(`http://127.0.0.1:${port}/slow`)).rejects.toThrow();
  });

  it('cuts a client that stops reading its answer once the close grace is over', async () => {
    const app = build(200);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    // Asks for 64 MiB and never reads: the stream stalls once the socket buffers are full.
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write('GET /large HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(app.close()).resolves.toBeUndefined();
    expect(socket.bytesRead).toBeLessThan(64 * 1024 * 1024);
    socket.destroy();
  });
});
