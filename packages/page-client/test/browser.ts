import { createServer, type Server } from 'node:http';

export { closeChromium, collectErrors, launchChromium } from '@app/server-kit/testing/chromium';

/** Serves sample pages (path → HTML or JS) on loopback, as a customer's web site would. */
export async function serveSite(
  pages: Record<string, string>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const body = pages[path] ?? pages['/'];
    response.writeHead(body === undefined ? 404 : 200, {
      'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8',
    });
    response.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
