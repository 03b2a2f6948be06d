import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudflareFake } from '../src/index.ts';

const TOKEN = 'Yw3kWfQ1hZc8rJ2mXv5nTq7LpB9sGd4aEe6uKiOo';
const EMAIL = 'ops@example.com';
const KEY = '0123456789abcdef0123456789abcdef01234';

interface Envelope<T> {
  success: boolean;
  errors: { code: number; message: string; error_chain?: unknown[] }[];
  messages: unknown[];
  result: T;
  result_info?: { page: number; per_page: number; count: number; total_count: number; total_pages: number };
}

describe('Cloudflare API v4 fake', () => {
  const fake = new CloudflareFake({
    tokens: [TOKEN],
    globalKeys: { [EMAIL]: KEY },
    zones: ['example.com', 'other.org'],
  });

  const call = async <T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
  ) => {
    const res = await fetch(`${fake.apiUrl}${path}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Envelope<T> };
  };

  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('checks both auth schemes with the real error codes', async () => {
    const none = await call('GET', '/zones', undefined, {});
    expect(none.status).toBe(400);
    expect(none.body.errors.map((e) => e.code)).toEqual([9106, 9107]);
    const badFormat = await call('GET', '/zones', undefined, { 'x-auth-email': EMAIL, 'x-auth-key': TOKEN });
    expect(badFormat.body.errors[0]).toEqual({
      code: 6003,
      message: 'Invalid request headers',
      error_chain: [{ code: 6103, message: 'Invalid format for X-Auth-Key header' }],
    });
    const wrongToken = await call('GET', '/zones', undefined, { authorization: 'Bearer nope' });
    expect([wrongToken.status, wrongToken.body.success, wrongToken.body.result]).toEqual([403, false, null]);
    const globalKey = await call<unknown[]>('GET', '/zones', undefined, {
      'x-auth-email': EMAIL,
      'x-auth-key': KEY,
    });
    expect(globalKey.body.result).toHaveLength(2);
  });

  it('looks a zone up by name with result_info', async () => {
    const res = await call<{ id: string; name: string; status: string }[]>('GET', '/zones?name=example.com');
    expect(res.body.success).toBe(true);
    expect(res.body.result).toEqual([expect.objectContaining({ name: 'example.com', status: 'active' })]);
    expect(res.body.result[0]!.id).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.result_info).toEqual({ page: 1, per_page: 20, count: 1, total_count: 1, total_pages: 1 });
    expect((await call<unknown[]>('GET', '/zones?name=missing.net')).body.result).toEqual([]);
  });

  it('creates, lists, filters and deletes DNS records', async () => {
    const zoneId = [...fake.zones.values()].find((z) => z.name === 'example.com')!.id;
    const created = await call<{ id: string; name: string; ttl: number; proxied: boolean }>(
      'POST',
      `/zones/${zoneId}/dns_records`,
      {
        type: 'A',
        name: 'app',
        content: '203.0.113.10',
        ttl: 300,
        proxied: false,
        comment: 'cross-site',
      },
    );
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({
      name: 'app.example.com',
      ttl: 300,
      proxied: false,
      type: 'A',
      zone_name: 'example.com',
    });
    const duplicate = await call('POST', `/zones/${zoneId}/dns_records`, {
      type: 'A',
      name: 'app.example.com',
      content: '203.0.113.10',
      ttl: 1,
    });
    expect([duplicate.status, duplicate.body.errors[0]!.code]).toEqual([400, 81058]);
    const badIp = await call('POST', `/zones/${zoneId}/dns_records`, {
      type: 'A',
      name: 'x',
      content: 'nope',
    });
    expect(badIp.body.errors[0]!.message).toBe('Content for A record must be a valid IPv4 address.');

    const list = await call<{ id: string }[]>(
      'GET',
      `/zones/${zoneId}/dns_records?type=A&name=app.example.com`,
    );
    expect(list.body.result.map((r) => r.id)).toEqual([created.body.result.id]);
    expect(list.body.result_info?.total_count).toBe(1);
    const del = await call<{ id: string }>(
      'DELETE',
      `/zones/${zoneId}/dns_records/${created.body.result.id}`,
    );
    expect(del.body.result).toEqual({ id: created.body.result.id });
    const again = await call('DELETE', `/zones/${zoneId}/dns_records/${created.body.result.id}`);
    expect([again.status, again.body.errors[0]]).toEqual([
      404,
      { code: 81044, message: 'Record does not exist.' },
    ]);
    expect(fake.recordsOf('example.com')).toEqual([]);
  });

  it('answers unknown zones with the routing error and injects failures', async () => {
    const res = await call('GET', '/zones/0123/dns_records');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e) => e.code)).toEqual([7003, 7000]);
    fake.failNext(1, {
      method: 'GET',
      path: '/client/v4/zones',
      status: 503,
      message: 'Service Unavailable',
    });
    const failed = await call('GET', '/zones?name=example.com');
    expect([failed.status, failed.body.success, failed.body.errors[0]!.message]).toEqual([
      503,
      false,
      'Service Unavailable',
    ]);
    expect(fake.countRequests({ path: '/client/v4/zones' })).toBeGreaterThan(0);
  });
});
