import { connect } from 'node:net';

/** A TCP exchange with a server that speaks first (the test image's `tcp-ok`): what it sends before closing. */
export const tcpAnswer = (host: string, port: number) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect({ host, port });
    let answer = '';
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer from ${host}:${port}`)));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
