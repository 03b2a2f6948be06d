/**
 * A server process for the delivery bench, driven over IPC by bench/translations.ts, so the server under
 * test has its own event loop and its CPU time can be read apart from the load generator's.
 *   role "translator": the real app on a fresh SQLite database, seeded with 2,000 approved translations
 *   role "bare":       a node:http server answering the bytes it is sent
 *   role "kit":        server-kit's createHttpServer (Fastify, no routes of ours) answering the same bytes
 *   role "fastify":    plain Fastify (no logger, no hooks) answering the same bytes
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createHttpServer } from '@app/server-kit';
import { createTestDatabase } from '@app/server-kit/testing';
import { buildTranslator } from '../src/app.ts';
import { benchConfig, seedTranslations } from './setup.ts';

type Message =
  { type: 'cpu' } | { type: 'stop' } | { type: 'bytes'; plain: string; gzip: string; etag: string };

const send = (message: unknown) => process.send!(message);
const role = process.argv[2];
let stop: () => Promise<void> = async () => {};

process.on('message', async (message: Message) => {
  if (message.type === 'cpu') send({ type: 'cpu', usage: process.cpuUsage() });
  if (message.type === 'stop') {
    await stop();
    process.exit(0);
  }
  if (message.type === 'bytes') {
    const plain = Buffer.from(message.plain, 'base64');
    const gzip = Buffer.from(message.gzip, 'base64');
    if (role === 'kit' || role === 'fastify') {
      const app =
        role === 'kit'
          ? createHttpServer({ logLevel: 'silent', trustProxy: [] })
          : Fastify({ logger: false });
      app.get('/api/translations', async (request, reply) => {
        const gz = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
        reply
          .type('application/json; charset=utf-8')
          .header('etag', message.etag)
          .header('cache-control', 'no-cache')
          .header('vary', 'accept-encoding, x-api-key');
        return gz ? reply.header('content-encoding', 'gzip').send(gzip) : reply.send(plain);
      });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      stop = () => app.close();
      return send({ type: 'ready', url: `${url}/api/translations?lang=fr` });
    }
    const server = createServer((req, res) => {
      const gz = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        etag: message.etag,
        'cache-control': 'no-cache',
        vary: 'accept-encoding, x-api-key',
        ...(gz ? { 'content-encoding': 'gzip' } : {}),
        'content-length': gz ? gzip.length : plain.length,
      });
      res.end(gz ? gzip : plain);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stop = () => new Promise((resolve) => server.close(() => resolve()));
    send({
      type: 'ready',
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/translations?lang=fr`,
    });
  }
});

if (role === 'translator') {
  const database = await createTestDatabase();
  const translator = await buildTranslator(benchConfig(database), { workers: false });
  const url = await translator.listen();
  const key = translator.defaultProject.project.api_key;
  await seedTranslations(url, key, 2000, 'fr');
  stop = async () => {
    await translator.close();
    await database.drop();
  };
  send({ type: 'ready', url: `${url}/api/translations?lang=fr`, key });
} else {
  send({ type: 'waiting' });
}
