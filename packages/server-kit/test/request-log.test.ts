import { describe, expect, it } from 'vitest';
import { createHttpServer, envReader, readCommonConfig, ConfigError } from '../src/index.ts';

/** A server with one read, one write and one failing route, logging into `lines`. */
async function serve(requestLogSample: number | undefined) {
  const lines: {
    reqId: string;
    msg: string;
    req?: { method: string; url: string };
    res?: { statusCode: number };
  }[] = [];
  const app = createHttpServer({
    logLevel: 'info',
    trustProxy: [],
    requestLogSample,
    logStream: { write: (line: string) => lines.push(JSON.parse(line)) },
  });
  app.get('/read', async () => ({ data: 1 }));
  app.post('/write', async () => ({ data: 1 }));
  app.post('/poll', { config: { routineLog: true } }, async (request) => {
    if ((request.body as { fail?: boolean } | undefined)?.fail) throw new Error('boom');
    return { data: 1 };
  });
  app.get('/fail', async () => {
    throw new Error('boom');
  });
  app.get('/warns', async (request) => {
    request.log.warn({ detail: 7 }, 'something odd');
    return { data: 1 };
  });
  await app.ready();
  const call = (method: string, url: string, headers: Record<string, string> = {}, body?: object) =>
    app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
  return { app, lines, call };
}

describe('request log', () => {
  it('writes one line per request, with the request id it answers with', async () => {
    const { app, lines, call } = await serve(undefined);
    const answer = await call('GET', '/read?x=1', { 'x-request-id': 'client-trace-1' });
    expect(answer.headers['x-request-id']).toBe('client-trace-1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      reqId: 'client-trace-1',
      msg: 'request completed',
      req: { method: 'GET', url: '/read?x=1' },
      res: { statusCode: 200 },
    });
    await app.close();
  });

  it('when sampled, still logs every error and write, and keeps lines out of the routine reads', async () => {
    const { app, lines, call } = await serve(0);
    for (let i = 0; i < 20; i++) await call('GET', '/read');
    await call('POST', '/write');
    await call('GET', '/fail');
    await call('GET', '/nowhere');
    const logged = lines
      .filter((line) => line.req)
      .map((line) => `${line.req!.method} ${line.req!.url} ${line.res?.statusCode}`);
    expect(logged).toEqual(['POST /write 200', 'GET /fail 500', 'GET /nowhere 404']);
    await app.close();
  });

  it('samples a poll (config.routineLog) like a read, and still logs its errors', async () => {
    const { app, lines, call } = await serve(0);
    for (let i = 0; i < 20; i++) await call('POST', '/poll');
    await call('POST', '/poll', {}, { fail: true });
    await call('POST', '/write');
    const logged = lines
      .filter((line) => line.req)
      .map((line) => `${line.req!.method} ${line.req!.url} ${line.res?.statusCode}`);
    expect(logged).toEqual(['POST /poll 500', 'POST /write 200']);
    await app.close();
  });

  it("writes a route's own lines with the request id, though a sampled request makes no logger", async () => {
    const { app, lines, call } = await serve(0);
    await call('GET', '/read', { 'x-request-id': 'quiet-1' });
    await call('GET', '/warns', { 'x-request-id': 'odd-1' });
    expect(lines).toEqual([expect.objectContaining({ reqId: 'odd-1', msg: 'something odd', detail: 7 })]);
    await app.close();
  });

  it('samples 1 % of routine reads in production unless REQUEST_LOG_SAMPLE says otherwise', () => {
    expect(readCommonConfig(envReader({ NODE_ENV: 'production' })).requestLogSample).toBe(0.01);
    expect(readCommonConfig(envReader({})).requestLogSample).toBe(1);
    expect(
      readCommonConfig(envReader({ NODE_ENV: 'production', REQUEST_LOG_SAMPLE: '1' })).requestLogSample,
    ).toBe(1);
    expect(readCommonConfig(envReader({ REQUEST_LOG_SAMPLE: '0.25' })).requestLogSample).toBe(0.25);
    for (const bad of ['2', '-0.1', 'half', '1e-3']) {
      expect(() => readCommonConfig(envReader({ REQUEST_LOG_SAMPLE: bad }))).toThrow(ConfigError);
    }
  });
});
