import { request, type IncomingHttpHeaders } from 'node:http';

/**
 * One call to a Docker-API engine on its unix socket: status, headers and parsed JSON (or text) body.
 * A string body is sent as it is (malformed JSON), anything else as JSON.
 */
export function engineCall(
  socketPath: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = request(
      {
        socketPath,
        method,
        path,
        headers: payload ? { 'content-type': 'application/json' } : {},
        timeout: 120_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON (a ping, a pull's progress stream)
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer from ${socketPath}`)));
    req.end(payload);
  });
}

/** Whether an engine answers `/_ping` on this socket. */
export const engineAnswers = (socketPath: string) =>
  engineCall(socketPath, 'GET', '/_ping').then(
    (reply) => reply.status === 200,
    () => false,
  );
