import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamPlaces, type StreamPlace } from './stream-places.ts';

const refuse = (held?: number) => new Error(held === undefined ? 'server full' : `holds ${held}`);

const places = (perUser: number, total: number, keepAliveMs = 60_000) =>
  new StreamPlaces({ perUser, total, keepAliveMs, refuse });

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/**
 * A server that opens an event stream in a place of `streams` for every request and starts it with a
 * comment, as the services do; `closed` counts onClose.
 */
async function streamingServer(streams: StreamPlaces) {
  const state = { closed: 0 };
  const server = createServer((_request, response) => {
    streams.open(streams.reserve('u'), response, () => (state.closed += 1));
    response.write(': open\n\n');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const connect = () =>
    new Promise<{ response: IncomingMessage; close: () => void }>((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port }, (response) =>
        resolve({ response, close: () => outgoing.destroy() }),
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
  return { state, connect };
}

const eventually = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

describe('StreamPlaces', () => {
  it('refuses a holder past their places with what they hold, while another still may take one', () => {
    const streams = places(2, 10);
    streams.reserve('a');
    streams.reserve('a');
    expect(() => streams.reserve('a')).toThrow('holds 2');
    expect(() => streams.reserve('b')).not.toThrow();
  });

  it('refuses everyone once all places are taken, and takes again after one is given back', () => {
    const streams = places(5, 2);
    const first = streams.reserve(1);
    streams.reserve(2);
    expect(() => streams.reserve(3)).toThrow('server full');
    first.release();
    expect(() => streams.reserve(3)).not.toThrow();
  });

  it('gives a place back once, however often it is released', () => {
    const streams = places(1, 10);
    const place: StreamPlace = streams.reserve('a');
    place.release();
    place.release();
    streams.reserve('a');
    expect(() => streams.reserve('a')).toThrow('holds 1');
  });

  it('answers an event stream with keep-alive comments, and gives the place back when the client goes', async () => {
    const streams = places(1, 10, 20);
    const { state, connect } = await streamingServer(streams);
    const client = await connect();
    expect(client.response.statusCode).toBe(200);
    expect(client.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.response.headers['cache-control']).toBe('no-cache, no-transform');
    let received = '';
    client.response.on('data', (chunk) => (received += chunk));
    await eventually(() => received.startsWith(': open\n\n: keep-alive\n\n'));
    expect(streams.size).toBe(1);
    // The holder's only place is in use.
    expect(() => streams.reserve('u')).toThrow('holds 1');

    client.close();
    await eventually(() => streams.size === 0);
    expect(state.closed).toBe(1);
    expect(() => streams.reserve('u').release()).not.toThrow();
    streams.closeAll();
  });

  it('ends every open stream on closeAll', async () => {
    const streams = places(5, 10);
    const { connect } = await streamingServer(streams);
    const clients = [await connect(), await connect()];
    await eventually(() => streams.size === 2);
    const ended = clients.map(
      ({ response }) => new Promise<void>((resolve) => response.on('end', resolve).resume()),
    );
    streams.closeAll();
    await Promise.all(ended);
    await eventually(() => streams.size === 0);
  });
});
