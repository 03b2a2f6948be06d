import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApproved, serveOrigin, startHarness, type Harness } from './helpers.ts';
import { get } from './seo-site.ts';

// SEO prerendering runs a site's own scripts in the translator's Chromium. The origin is allowlisted
// by address and port; the trap, another port on 127.0.0.1, stands for an internal service. The page's
// script tries to read the trap and write what it got into the page the translator serves back.

const page = (
  script: string,
  more = '',
) => `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<h1>Welcome</h1><div id="out"></div>${more}
<script>
  const out = document.getElementById('out');
  const show = (text) => out.append(document.createElement('p'), text);
  ${script}
</script></body></html>`;

const SOCKETS = (trap: number) =>
  page(`for (const target of ['127.0.0.1:${trap}', 'localhost:${trap}']) {
    const socket = new WebSocket('ws://' + target + '/');
    socket.onopen = () => show('socket open: ' + target);
    socket.onmessage = (event) => show('socket said: ' + event.data);
    socket.onerror = () => show('socket failed: ' + target);
  }`);

const REDIRECTED_IMAGE = page('', '<img src="/hop" alt="">');

let h: Harness;
let origin: { url: string; close(): Promise<void> };
const seen: string[] = [];
let trap: ReturnType<typeof createServer>;
let trapPort: number;

beforeAll(async () => {
  trap = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    response.end('internal figures');
  });
  trap.on('connection', () => seen.push('connection'));
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as AddressInfo).port;
  origin = await serveOrigin({
    '/': { body: SOCKETS(trapPort) },
    '/redirecting': { body: REDIRECTED_IMAGE },
    '/hop': { status: 302, location: `http://127.0.0.1:${trapPort}/secret` },
    '*': { status: 404, body: 'not found' },
  });
  h = await startHarness({
    seo: {
      allowlist: [new URL(origin.url).host],
      originCacheSeconds: 300,
      cachedPages: 100,
      maxPageBytes: 5 * 2 ** 20,
      originTimeoutMs: 10_000,
    },
  });
  const saved = await h.client.patch('/api/project/settings', {
    settings: {
      languages: ['fr'],
      seoOrigin: origin.url,
      seoPublicUrl: 'https://shop.example',
      seoPrerender: true,
    },
  });
  expect(saved.status).toBe(200);
  await registerApproved(h.client, ['Welcome']);
  await h.client.post('/api/translations', {
    lang: 'fr',
    translations: [{ key: 'Welcome', context: '', value: 'Bienvenue' }],
  });
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await origin?.close();
  trap?.closeAllConnections();
  await new Promise((resolve) => trap?.close(resolve));
});

describe("SEO prerendering: the site's scripts reach only what the outbound policy allows", () => {
  const languagePage = (path: string) =>
    get(`${h.url}/seo/${h.translator.defaultProject.project.id}/fr${path}`, { host: 'shop.example' });

  it("serves the page, its script's WebSockets to an internal port (by address and by name) refused", async () => {
    const answer = await languagePage('/');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Bienvenue');
    // What the script wrote into the page: only refusals (the page may be taken before the last one,
    // a WebSocket does not hold the network idle wait).
    const out = /<div id="out">(.*?)<\/div>/s.exec(answer.body)?.[1]?.split('<p></p>').filter(Boolean);
    for (const line of out ?? [])
      expect(line).toMatch(new RegExp(`^socket failed: (127\\.0\\.0\\.1|localhost):${trapPort}$`));
    expect(seen).toEqual([]);
  }, 60_000);

  it('an image redirected to an internal port is not fetched there; the page is not served (502)', async () => {
    const answer = await languagePage('/redirecting');
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body).error.code).toBe('origin_unavailable');
    expect(seen).toEqual([]);
  });
});
