import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@app/server-kit/testing';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET on a connection of its own, with any Host header (fetch cannot send one). */
export function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A page by path; a body function writes the page for the address asked (a search page, say). */
type Route = { status?: number; type?: string; body?: string | ((url: URL) => string); location?: string };

/** A site's origin on loopback: pages by path, redirects and files. */
export async function serveOrigin(
  routes: Record<string, Route>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const route = routes[path] ?? routes['*']!;
    res.writeHead(route.status ?? 200, {
      'content-type': route.type ?? 'text/html; charset=utf-8',
      ...(route.location ? { location: route.location } : {}),
    });
    const body =
      typeof route.body === 'function' ? route.body(new URL(req.url ?? '/', 'http://origin')) : route.body;
    res.end(body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The site's own nginx on loopback: `location /` proxies to the origin, and docs/seo-nginx.conf (the
 * snippet the operations guide gives) sends the language addresses to the translator.
 */
export async function startSiteNginx(options: {
  origin: string;
  translator: string;
  projectId: number;
  languages: string[];
}): Promise<{ url: string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'seo-nginx-'));
  chmodSync(dir, 0o755); // nginx's workers drop privileges and must still read their files
  mkdirSync(join(dir, 'tmp'));
  const port = await freePort();
  const snippet = readFileSync(new URL('../../../docs/seo-nginx.conf', import.meta.url), 'utf8')
    .replaceAll('127.0.0.1:3100', new URL(options.translator).host)
    .replaceAll('/seo/1', `/seo/${options.projectId}`)
    .replace('(fr|de)', `(${options.languages.join('|')})`);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    [
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')};`,
      'events {}',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (name) => `  ${name}_temp_path ${join(dir, 'tmp', name)};`,
      ),
      '  server {',
      `    listen 127.0.0.1:${port};`,
      snippet,
      `    location / { proxy_pass ${options.origin}; }`,
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  const started = spawnSync('nginx', ['-c', conf, '-p', dir], { encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`nginx did not start: ${started.stderr}`);
  for (let waited = 0; ; waited += 50) {
    try {
      await get(`http://127.0.0.1:${port}/__ready`);
      break;
    } catch (error) {
      if (waited > 5000) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop() {
      spawnSync('nginx', ['-c', conf, '-p', dir, '-s', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
