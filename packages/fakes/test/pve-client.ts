/**
 * A minimal Proxmox VE API client written from the API documentation, for the fake's tests: form
 * bodies, the `{data}` envelope, reason phrases on errors, task polling.
 */
export interface PveResponse<T = unknown> {
  status: number;
  statusText: string;
  body: { data: T; errors?: Record<string, string>; message?: string; total?: number } | undefined;
}

export class PveClient {
  headers: Record<string, string> = {};

  constructor(readonly apiUrl: string) {}

  static withToken(apiUrl: string, tokenId: string, secret: string): PveClient {
    const client = new PveClient(apiUrl);
    client.headers.authorization = `PVEAPIToken=${tokenId}=${secret}`;
    return client;
  }

  async login(
    username: string,
    password: string,
  ): Promise<PveResponse<{ ticket: string; CSRFPreventionToken: string }>> {
    const res = await this.call<{ ticket: string; CSRFPreventionToken: string }>('POST', '/access/ticket', {
      username,
      password,
    });
    if (res.status === 200 && res.body) {
      this.headers.cookie = `PVEAuthCookie=${encodeURIComponent(res.body.data.ticket)}`;
      this.headers.csrfpreventiontoken = res.body.data.CSRFPreventionToken;
    }
    return res;
  }

  async call<T = unknown>(
    method: string,
    path: string,
    params: Record<string, string | number> = {},
  ): Promise<PveResponse<T>> {
    const form = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
    );
    const inQuery = method === 'GET' || method === 'DELETE';
    const url = `${this.apiUrl}${path}${inQuery && form.size ? `?${form}` : ''}`;
    const headers: Record<string, string> = { ...this.headers };
    if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, { method, headers, body: inQuery ? undefined : form.toString() });
    const text = await res.text();
    return { status: res.status, statusText: res.statusText, body: text ? JSON.parse(text) : undefined };
  }

  get<T = unknown>(path: string, params?: Record<string, string | number>) {
    return this.call<T>('GET', path, params);
  }
  post<T = unknown>(path: string, params?: Record<string, string | number>) {
    return this.call<T>('POST', path, params);
  }

  /** Polls `tasks/{upid}/status` until `stopped`; returns the exit status and the full log. */
  async waitTask(node: string, upid: string): Promise<{ exitstatus: string; log: string[] }> {
    const path = `/nodes/${node}/tasks/${encodeURIComponent(upid)}`;
    for (;;) {
      const status = await this.get<{ status: string; exitstatus?: string }>(`${path}/status`);
      if (status.body?.data.status === 'stopped') {
        const log = await this.get<{ n: number; t: string }[]>(`${path}/log`, { start: 0, limit: 0 });
        return { exitstatus: status.body.data.exitstatus!, log: log.body!.data.map((l) => l.t) };
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
