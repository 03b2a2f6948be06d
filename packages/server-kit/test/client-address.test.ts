import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, isLocalRequest, type HttpServer } from '../src/index.ts';

/** Two servers on loopback: one trusting no proxy, one trusting 127.0.0.1 as its reverse proxy. */
describe('who is local', () => {
  const servers: HttpServer[] = [];
  const urls: string[] = [];
  beforeAll(async () => {
    for (const trustProxy of [[], ['127.0.0.1']]) {
      const app = createHttpServer({ logLevel: 'silent', trustProxy });
      app.get('/local', async (request) => ({ local: isLocalRequest(request), ip: request.ip }));
      urls.push(await app.listen({ port: 0, host: '127.0.0.1' }));
      servers.push(app);
    }
  });
  afterAll(async () => Promise.all(servers.map((app) => app.close())));

  const ask = async (url: string, headers: Record<string, string> = {}) =>
    ((await (await fetch(`${url}/local`, { headers })).json()) as { local: boolean }).local;

  it('a direct loopback caller is local', async () => {
    expect(await ask(urls[0]!)).toBe(true);
    expect(await ask(urls[1]!)).toBe(true);
  });

  it.each([
    ['x-forwarded-for', '203.0.113.9'],
    ['x-forwarded-for', '127.0.0.1'],
    ['x-real-ip', '127.0.0.1'],
    ['forwarded', 'for=127.0.0.1'],
  ])('a loopback peer outside TRUST_PROXY that forwards (%s: %s) is not local', async (name, value) => {
    expect(await ask(urls[0]!, { [name]: value })).toBe(false);
  });

  it('a trusted proxy is believed about the client it names', async () => {
    expect(await ask(urls[1]!, { 'x-forwarded-for': '203.0.113.9' })).toBe(false);
    expect(await ask(urls[1]!, { 'x-forwarded-for': '127.0.0.1' })).toBe(true);
    // X-Real-IP alone is not how a trusted proxy names the client: not local.
    expect(await ask(urls[1]!, { 'x-real-ip': '127.0.0.1' })).toBe(false);
  });
});
