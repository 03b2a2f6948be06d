import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { createHttpServer, Nullable } from '../src/index.ts';

const build = () => {
  const app = createHttpServer({ logLevel: 'silent', trustProxy: [] });
  const Body = Type.Object({
    name: Type.Optional(Nullable(Type.String())),
    port: Type.Optional(Nullable(Type.Integer())),
    verify: Type.Optional(Nullable(Type.Boolean())),
    tags: Type.Optional(Nullable(Type.Array(Type.String()))),
    ref: Type.Optional(Nullable(Type.Union([Type.Integer(), Type.String()]))),
  });
  app.post(
    '/echo',
    { schema: { body: Body, response: { 200: Type.Object({ data: Body }) } } },
    async (request) => ({
      data: request.body,
    }),
  );
  return app;
};

describe('Nullable', () => {
  it('keeps an explicit null as null (never "" or 0 or false) on input and output', async () => {
    const response = await build().inject({
      method: 'POST',
      url: '/echo',
      payload: { name: null, port: null, verify: null, tags: null, ref: null },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ name: null, port: null, verify: null, tags: null, ref: null });
  });

  it('still coerces and validates non-null values', async () => {
    const app = build();
    const coerced = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { name: 'web', port: '8080', verify: 'true', tags: 'one', ref: 7 },
    });
    expect(coerced.json().data).toEqual({ name: 'web', port: 8080, verify: true, tags: ['one'], ref: 7 });
    const bad = await app.inject({ method: 'POST', url: '/echo', payload: { port: 'eighty' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('port');
  });
});
