import { createSocket } from 'node:dgram';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '@app/fakes/openai';
import { startHarness, type Harness } from './helpers.ts';
import { readScreenshotConfig } from '../src/screenshots/screenshots-config.ts';
import { envReader } from '@app/server-kit';

// Real things only: a page served on loopback, Debian's Chromium rendering it, the fake OpenAI API
// receiving the images. The allowlist lets the browser reach the site's port on 127.0.0.1 (by that name
// only); the trap, another port on 127.0.0.1, stands for an internal service the browser must not reach.

const PAGE = `<!doctype html><html lang="en"><head><title>Shop</title>
<style>body { font: 16px sans-serif; margin: 0; } .spacer { height: 1400px; }</style></head><body>
<header><h1>Welcome to our shop</h1></header>
<main>
  <p>Fresh bread every morning.</p>
  <div class="spacer"></div>
  <p id="far">You have <b>3</b> new messages</p>
</main></body></html>`;

let h: Harness;
let fake: FakeOpenAI;
let site: { url: string; port: number; requests: string[]; close(): Promise<void> };
/** Another shop, reached by the name localhost (allowlisted for its port): an allowed origin of its own. */
let shop: typeof site;
let ids: Record<string, number>;
let trap: { port: number; udpPort: number; seen: string[]; close(): Promise<void> };
/** What the probe page's script reported, and the browser's processes while it was served. */
const probed = { reports: [] as string[], processes: [] as BrowserProcess[] };

/**
 * The probe page: WebSockets to the trap by address, by a name and IPv4-mapped, a private address; an
 * image redirected to the trap; WebRTC asking the trap for its address (STUN over UDP, TURN over TCP).
 */
const probePage = () => `<!doctype html><html lang="en"><head><title>Probe</title></head><body>
<p>Probing the network</p><img src="/hop">
<script>
  for (const target of ['127.0.0.1:${trap.port}', 'localhost:${trap.port}', '[::ffff:127.0.0.1]:${trap.port}', '10.0.0.1:${trap.port}']) {
    const socket = new WebSocket('ws://' + target + '/');
    const report = (what) => fetch('/report?' + new URLSearchParams({ target, what }));
    socket.onopen = () => report('open');
    socket.onerror = () => report('error');
  }
  const peer = new RTCPeerConnection({ iceServers: [
    { urls: 'stun:127.0.0.1:${trap.udpPort}' },
    { urls: 'turn:127.0.0.1:${trap.port}?transport=tcp', username: 'probe', credential: 'probe' },
  ] });
  peer.onicegatheringstatechange = () => {
    if (peer.iceGatheringState === 'complete') fetch('/report?' + new URLSearchParams({ target: 'webrtc', what: 'gathered' }));
  };
  peer.createDataChannel('probe');
  peer.createOffer().then((offer) => peer.setLocalDescription(offer));
</script></body></html>`;

interface BrowserProcess {
  pid: number;
  uids: string;
  seccomp: string;
  cmdline: string;
}

/** The Chromium processes this test process started (its descendants), as the kernel sees them. */
function browserProcesses(): BrowserProcess[] {
  const all = readdirSync('/proc').flatMap((pid) => {
    if (!/^\d+$/.test(pid)) return [];
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1] ?? '';
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      return [
        {
          pid: Number(pid),
          ppid: Number(field('PPid')),
          uids: field('Uid'),
          seccomp: field('Seccomp'),
          cmdline,
        },
      ];
    } catch {
      return [];
    }
  });
  const ours = new Set([process.pid]);
  for (let grown = true; grown;) {
    grown = false;
    for (const entry of all)
      if (ours.has(entry.ppid) && !ours.has(entry.pid)) {
        ours.add(entry.pid);
        grown = true;
      }
  }
  return all
    .filter((entry) => entry.pid !== process.pid && ours.has(entry.pid) && entry.cmdline.includes('chromium'))
    .map(({ ppid: _ppid, ...entry }) => entry);
}

/** A TCP server and a UDP socket on 127.0.0.1 that record every connection, request and datagram they see. */
async function startTrap(): Promise<typeof trap> {
  const seen: string[] = [];
  const udp = createSocket('udp4').on('message', () => seen.push('datagram'));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    response.end('internal figures');
  });
  server.on('connection', () => seen.push('connection'));
  server.on('upgrade', (request, socket) => {
    seen.push(`upgrade ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    udpPort: udp.address().port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        udp.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(): Promise<typeof site> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '/');
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/probe') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(probePage());
      return;
    }
    if (path === '/hop') {
      response.writeHead(302, { location: `http://127.0.0.1:${trap.port}/secret` }).end();
      return;
    }
    if (path === '/report') {
      // The page's script is running: its renderer is there to be seen.
      if (!probed.processes.length) probed.processes = browserProcesses();
      const query = new URL(request.url!, 'http://site').searchParams;
      probed.reports.push(`${query.get('target')} ${query.get('what')}`);
      response.writeHead(204).end();
      return;
    }
    if (path === '/moved') {
      response.writeHead(302, { location: `http://localhost:${site.port}/inside` }).end();
      return;
    }
    if (path === '/inside') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Internal figures</p>');
      return;
    }
    if (path !== '/' && path !== '/shop') {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(png: Buffer) {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

async function idsByKey(client = h.client) {
  const rows = (await client.get('/api/translations/all?limit=100')).body.rows as {
    id: number;
    key: string;
    hasScreenshot: boolean;
  }[];
  return rows;
}

/** Waits until no phrase of the project waits for its screenshot (the debounced run after registration). */
async function waitForCaptures(client = h.client) {
  const until = Date.now() + 60_000;
  for (;;) {
    const status = (await client.get('/api/screenshots/status')).body;
    if (status.pending === 0) return;
    if (Date.now() > until) throw new Error(`still waiting for screenshots: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  [fake, site, shop, trap] = await Promise.all([
    startFakeOpenAI({ apiKey: 'sk-test' }),
    serve(),
    serve(),
    startTrap(),
  ]);
  h = await startHarness(
    { ai: { baseUrl: fake.baseUrl, batchSize: 10, parallelCalls: 1, backoffMs: 5 } },
    {
      screenshots: {
        ...readScreenshotConfig(
          envReader({ TRANSLATOR_SCREENSHOT_ALLOWLIST: `127.0.0.1:${site.port},localhost:${shop.port}` }),
        ),
        debounceMs: 50,
      },
    },
  );
  await h.client.patch('/api/project/settings', {
    settings: { languages: ['fr'], translationProviderApiKey: 'sk-test', screenshotsEnabled: true },
  });
  await h.client.post('/api/textnodes', {
    url: `${site.url}/`,
    keys: [{ key: 'Welcome to our shop' }, { key: 'You have {{number:0}} new messages' }],
  });
  // The same server, by a name the allowlist does not hold: it resolves to loopback, so it is refused.
  await h.client.post('/api/textnodes', {
    url: `http://localhost:${site.port}/shop`,
    keys: [{ key: 'Fresh bread every morning.' }],
  });
  // An allowed page that redirects to a refused one (Chromium follows redirects past the route handler).
  await h.client.post('/api/textnodes', { url: `${site.url}/moved`, keys: [{ key: 'Internal figures' }] });
  // Seen on no page: nothing to photograph.
  await h.client.post('/api/textnodes', { keys: [{ key: 'Only in a file' }] });
  ids = Object.fromEntries((await idsByKey()).map((row) => [row.key, row.id]));
  await waitForCaptures();
}, 90_000);

afterAll(async () => {
  await h?.stop();
  await fake?.close();
  await site?.close();
  await shop?.close();
  await trap?.close();
});

beforeEach(() => {
  fake.requests.length = 0;
});

describe('screenshots as context', () => {
  it('photographs where each phrase appears, on the page it was registered from', async () => {
    for (const key of ['Welcome to our shop', 'You have {{number:0}} new messages']) {
      const res = await fetch(`${h.url}/api/phrases/${ids[key]}/screenshot`, {
        headers: { 'x-api-key': h.key },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await res.arrayBuffer());
      const { width, height } = pngSize(png);
      expect(width).toBeGreaterThanOrEqual(200);
      expect(width).toBeLessThanOrEqual(800);
      expect(height).toBeGreaterThanOrEqual(100);
      expect(height).toBeLessThanOrEqual(400);
      expect(png.length).toBeLessThanOrEqual(200 * 1024);
    }
    const rows = await idsByKey();
    const flags = Object.fromEntries(rows.map((row) => [row.key, row.hasScreenshot]));
    expect(flags).toEqual({
      'Welcome to our shop': true,
      'You have {{number:0}} new messages': true,
      'Fresh bread every morning.': false,
      'Internal figures': false,
      'Only in a file': false,
    });
    expect((await h.client.get('/api/screenshots/status')).body).toEqual({
      enabled: true,
      available: true,
      reason: null,
      captured: 2,
      failed: 2,
      pending: 0,
    });
  });

  it('takes none of a page whose address resolves to loopback and is not allowlisted, nor of one redirected there', async () => {
    for (const key of ['Fresh bread every morning.', 'Internal figures']) {
      const res = await h.client.get(`/api/phrases/${ids[key]}/screenshot`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('answers 404 not_found for a phrase without a screenshot, and for another project’s phrase', async () => {
    const none = await h.client.get(`/api/phrases/${ids['Only in a file']}/screenshot`);
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ error: { code: 'not_found' } });
    const other = await h.newProject('Elsewhere');
    const theirs = await other.client.get(`/api/phrases/${ids['Welcome to our shop']}/screenshot`);
    expect(theirs.status).toBe(404);
  });

  it('an explicit capture answers 202 with what it will take, and tries failed pages again', async () => {
    const res = await h.client.post('/api/screenshots/capture');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ queued: 2, pending: 2 });
    await waitForCaptures();
    expect((await h.client.get('/api/screenshots/status')).body).toMatchObject({ captured: 2, failed: 2 });
  });

  it('captures nothing for a project with screenshots off', async () => {
    const other = await h.newProject('No screenshots');
    await other.client.post('/api/textnodes', {
      url: `${site.url}/`,
      keys: [{ key: 'Welcome to our shop' }],
    });
    const [row] = await idsByKey(other.client);
    const refused = await other.client.post('/api/screenshots/capture');
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('screenshots_disabled');
    // Even when its worker is asked directly.
    const worker = h.translator.services.screenshotWorker;
    worker.wake(other.id, { delayMs: 0 });
    await worker.runNow();
    expect((await other.client.get(`/api/phrases/${row!.id}/screenshot`)).status).toBe(404);
    expect((await other.client.get('/api/screenshots/status')).body).toMatchObject({
      enabled: false,
      captured: 0,
      failed: 0,
      pending: 1,
    });
  });

  it('an AI job with include_screenshots sends each phrase’s image to the model; without, none', async () => {
    const phraseIds = ['Welcome to our shop', 'Only in a file'].map((key) => ids[key]!);
    await h.client.patch('/api/textnodes/status', { ids: phraseIds, status: 'approved' });

    const run = async (includeScreenshots: boolean) => {
      fake.requests.length = 0;
      const job = await h.client.post('/api/ai-jobs', {
        key_ids: phraseIds,
        lang: 'fr',
        include_screenshots: includeScreenshots,
      });
      expect(job.status).toBe(202);
      await expect
        .poll(async () => (await h.client.get(`/api/ai-jobs/${job.body.jobId}`)).body.status, {
          timeout: 15_000,
        })
        .toBe('completed');
      expect(fake.requests.map((request) => request.status)).toEqual([200]);
      return fake.requests[0]!.messages.find((message) => message.role === 'user')!;
    };

    const withImages = await run(true);
    const images = (withImages.parts ?? []).filter((part) => part.type === 'image_url');
    expect(images).toHaveLength(1);
    const url = images[0]!.type === 'image_url' ? images[0]!.image_url.url : '';
    expect(url).toMatch(/^data:image\/png;base64,/);
    const sent = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
    pngSize(sent);
    const stored = await fetch(`${h.url}/api/phrases/${ids['Welcome to our shop']}/screenshot`, {
      headers: { 'x-api-key': h.key },
    });
    expect(sent.equals(Buffer.from(await stored.arrayBuffer()))).toBe(true);
    // The item the image shows names it; the phrase without a screenshot names none.
    const items = JSON.parse(withImages.content).items as { id: string; screenshot?: number }[];
    expect(items.find((item) => item.id === String(ids['Welcome to our shop']))?.screenshot).toBe(1);
    expect(items.find((item) => item.id === String(ids['Only in a file']))?.screenshot).toBeUndefined();

    const without = await run(false);
    expect(without.parts).toBeUndefined();
    expect(without.content).not.toContain('screenshot');
  });

  it('a model that reads text only still translates the job: the batch is sent again without images', async () => {
    const phraseIds = ['Welcome to our shop'].map((key) => ids[key]!);
    await h.client.patch('/api/textnodes/status', { ids: phraseIds, status: 'approved' });
    await h.client.patch('/api/project/settings', { settings: { languages: ['fr', 'de'] } });
    fake.set({ textOnly: true });
    try {
      fake.requests.length = 0;
      const job = await h.client.post('/api/ai-jobs', {
        key_ids: phraseIds,
        lang: 'de',
        include_screenshots: true,
      });
      expect(job.status).toBe(202);
      await expect
        .poll(async () => (await h.client.get(`/api/ai-jobs/${job.body.jobId}`)).body.status, {
          timeout: 15_000,
        })
        .toBe('completed');
      expect(fake.requests.map((request) => request.status)).toEqual([400, 200]);
      const user = fake.requests[1]!.messages.find((message) => message.role === 'user')!;
      expect(user.parts).toBeUndefined();
      const translated = await h.client.get('/api/translations?lang=de');
      expect(translated.body).toContainEqual(expect.objectContaining({ key: 'Welcome to our shop' }));
    } finally {
      fake.set({ textOnly: false });
    }
  });

  it('photographs only pages on the allowed origins today: pages stored before registration refused others are passed over', async () => {
    // A project whose pages are on the second shop only; its phrases carry pages an older version
    // recorded without asking (a page of the first shop, which the browser may reach, and a script URL).
    const old = await h.newProject('Old pages');
    await old.client.patch('/api/project/settings', {
      settings: { screenshotsEnabled: true, allowedOrigins: [`http://localhost:${shop.port}`] },
    });
    const keys = ['Welcome to our shop', 'Fresh bread every morning.', 'You have {{number:0}} new messages'];
    await old.client.post('/api/textnodes', { keys: keys.map((key) => ({ key })) });
    const id = Object.fromEntries((await idsByKey(old.client)).map((row) => [row.key, row.id]));
    const foreign = `${site.url}/shop?stored=before-origins`;
    const allowed = `http://localhost:${shop.port}/`;
    const pages: [string, string][] = [
      ['Welcome to our shop', foreign],
      ['Welcome to our shop', allowed],
      ['Fresh bread every morning.', foreign],
      ['You have {{number:0}} new messages', 'javascript:alert(document.cookie)'],
    ];
    const day = new Date().toISOString().slice(0, 10);
    await h.translator.ctx.db
      .insertInto('phrase_urls')
      .values(
        pages.map(([key, url]) => ({ phrase_id: id[key]!, project_id: old.id, url, first_seen_day: day })),
      )
      .execute();
    shop.requests.length = 0;
    const worker = h.translator.services.screenshotWorker;
    worker.wake(old.id, { delayMs: 0 });
    await worker.runNow();

    const stored = await h.translator.ctx.db
      .selectFrom('phrase_screenshots')
      .select(['phrase_id', 'url', 'png', 'error'])
      .where('project_id', '=', old.id)
      .execute();
    const byKey = Object.fromEntries(
      keys.map((key) => [key, stored.find((row) => row.phrase_id === id[key])]),
    );
    // The phrase seen on both is photographed on the allowed page.
    expect(byKey['Welcome to our shop']).toMatchObject({ url: allowed, error: null });
    pngSize(Buffer.from(byKey['Welcome to our shop']!.png!));
    expect(shop.requests).toContain('/');
    // The others get the reason, and the browser never asked for the old page.
    const reason = 'No page this phrase was seen on is an http(s) page on the project’s allowed origins.';
    for (const key of ['Fresh bread every morning.', 'You have {{number:0}} new messages'])
      expect(byKey[key], key).toMatchObject({ url: '', png: null, error: reason });
    expect(site.requests.filter((request) => request.includes('stored=before-origins'))).toEqual([]);
    expect((await old.client.get('/api/screenshots/status')).body).toMatchObject({
      captured: 1,
      failed: 2,
      pending: 0,
    });
  });

  it('the screenshot goes with its phrase', async () => {
    const id = ids['You have {{number:0}} new messages']!;
    expect((await h.client.get(`/api/phrases/${id}/screenshot`)).status).toBe(200);
    expect((await h.client.delete(`/api/textnodes/${id}`)).status).toBe(200);
    expect((await h.client.get(`/api/phrases/${id}/screenshot`)).status).toBe(404);
  });
});

describe('the screenshot browser reaches only what the outbound policy allows', () => {
  let probe: { client: typeof h.client; id: number };

  beforeAll(async () => {
    probe = await h.newProject('Probe');
    // A page on the project's allowed origins: anyone with the page key could register it, and the
    // browser loads it and runs its script.
    await probe.client.patch('/api/project/settings', {
      settings: { screenshotsEnabled: true, allowedOrigins: [site.url] },
    });
    await probe.client.post('/api/textnodes', {
      url: `${site.url}/probe`,
      keys: [{ key: 'Probing the network' }],
    });
    await waitForCaptures(probe.client);
  }, 90_000);

  it("a page's WebSockets to loopback (by address, by name, IPv4-mapped) and to a private address, and its WebRTC, never connect", () => {
    // The sockets failed while the page was open (its script reported each), the trap saw none of them.
    expect([...probed.reports].sort()).toEqual([
      '10.0.0.1:' + trap.port + ' error',
      '127.0.0.1:' + trap.port + ' error',
      '[::ffff:127.0.0.1]:' + trap.port + ' error',
      'localhost:' + trap.port + ' error',
      'webrtc gathered',
    ]);
    expect(trap.seen).toEqual([]);
  });

  it('a subresource redirected to a refused loopback port is not fetched there', () => {
    expect(trap.seen.filter((entry) => entry.includes('/secret'))).toEqual([]);
  });

  it("runs the browser as an unprivileged user, its renderers in Chromium's sandbox", () => {
    expect(probed.processes.length).toBeGreaterThan(0);
    for (const entry of probed.processes) expect(entry.uids.split(/\s+/)).not.toContain('0');
    const renderers = probed.processes.filter((entry) => entry.cmdline.includes('--type=renderer'));
    expect(renderers.length).toBeGreaterThan(0);
    for (const renderer of renderers) expect(renderer.seccomp).toBe('2');
  });
});
