import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startManager, type TestManager } from './helpers.ts';

describe('meta endpoints', () => {
  let test: TestManager;
  beforeAll(async () => {
    test = await startManager();
  });
  afterAll(() => test.close());

  it('reports health without credentials', async () => {
    const response = await test.client().get('/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { status: 'ok', isDev: false, oidcEnabled: false, banner: null } });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('hands out a CSRF token, and the same token again to the same browser', async () => {
    const client = test.client();
    const first = await client.get('/csrf-token');
    expect(first.body.data.csrfToken).toEqual(expect.any(String));
    expect(client.cookie('connect.sid')).toBeTruthy();
    const second = await client.get('/csrf-token');
    expect(second.body.data.csrfToken).toBe(first.body.data.csrfToken);
  });

  it('serves the OpenAPI document as JSON and YAML covering every API route', async () => {
    const json = await test.client().get('/openapi.json');
    expect(json.status).toBe(200);
    expect(json.body.openapi).toBe('3.1.0');
    expect(json.body.info.version).toBe('1.1.0');
    const yaml = await fetch(`${test.baseUrl}/api/v1/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toMatch(/^text\/yaml/);
    expect(parse(await yaml.text())).toEqual(json.body);

    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(json.body.paths as Record<string, object>)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    // Every route the router knows under /api/v1 (but the hidden development login and the docs page with
    // its assets) is in the document.
    const routes: string[] = [];
    const parents: string[] = [];
    for (const line of test.manager.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const match = line.match(/^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/);
      if (!match) continue;
      const depth = match[1]!.length / 4;
      const path = (depth ? parents[depth - 1]! : '') + match[2]!;
      parents[depth] = path;
      for (const method of match[3]?.split(', ') ?? []) {
        if (method !== 'HEAD' && path.startsWith('/api/v1'))
          routes.push(`${method} ${path.slice('/api/v1'.length).replace(/:(\w+)/g, '{$1}')}`);
      }
    }
    expect(routes.length).toBeGreaterThan(30);
    // Where routes share a position with different parameter names, the router prints `{a}|{b}`.
    const variants = (route: string) => {
      const match = route.match(/(\{\w+\})\|(\{\w+\})/);
      return match ? [route.replace(match[0], match[1]!), route.replace(match[0], match[2]!)] : [route];
    };
    for (const route of routes.filter((entry) => !entry.endsWith('/auth/dev') && !/ \/docs\b/.test(entry))) {
      expect(
        variants(route).some((variant) => documented.has(variant)),
        route,
      ).toBe(true);
    }
    expect([...documented].some((entry) => entry.includes('/auth/dev'))).toBe(false);
  });
});
