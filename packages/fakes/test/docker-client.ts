import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

/** A Docker Engine API client from the docs: HTTP/1.1 over a unix socket or TCP, JSON bodies. */
export interface DockerResponse {
  status: number;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: <T = unknown>() => T;
}

export class DockerClient {
  constructor(
    private readonly target: { socketPath: string } | { baseUrl: string },
    private readonly prefix = '/v1.41',
  ) {}

  call(method: string, path: string, body?: unknown): Promise<DockerResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { host: 'docker' };
    if (payload) headers['content-type'] = 'application/json';
    const options =
      'socketPath' in this.target
        ? { socketPath: this.target.socketPath, path: this.prefix + path }
        : { ...splitUrl(this.target.baseUrl), path: this.prefix + path };
    return new Promise((resolve, reject) => {
      const req = request({ ...options, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            raw,
            json: () => JSON.parse(raw.toString()),
          });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Pull and return the JSON lines of the progress stream. */
  async pull(image: string, tag: string): Promise<{ status: number; lines: Record<string, unknown>[] }> {
    const res = await this.call('POST', `/images/create?fromImage=${encodeURIComponent(image)}&tag=${tag}`);
    const text = res.raw.toString();
    if (res.status !== 200) return { status: res.status, lines: [JSON.parse(text)] };
    return {
      status: res.status,
      lines: text
        .split('\r\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    };
  }
}

function splitUrl(baseUrl: string): { host: string; port: number } {
  const url = new URL(baseUrl);
  return { host: url.hostname, port: Number(url.port) };
}

/** Splits a multiplexed log stream into `[stream, text]` frames. */
export function demux(raw: Buffer): [number, string][] {
  const frames: [number, string][] = [];
  let offset = 0;
  while (offset + 8 <= raw.length) {
    const size = raw.readUInt32BE(offset + 4);
    frames.push([raw[offset]!, raw.subarray(offset + 8, offset + 8 + size).toString()]);
    offset += 8 + size;
  }
  return frames;
}
