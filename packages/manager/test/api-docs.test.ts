import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, readApiDocsPage } from '@app/server-kit/testing/chromium';
import { startManager, type TestManager } from './helpers.ts';

describe('manager API docs page', () => {
  let test: TestManager;
  let browser: Browser;
  beforeAll(async () => {
    test = await startManager();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await test?.close();
  });

  it('renders every operation in the browser under its own strict CSP', async () => {
    const page = await readApiDocsPage(browser, `${test.baseUrl}/api/v1/docs`);
    expect(page.errors).toEqual([]);
    expect(page.operations).toContain('GET /health');
    expect(page.operations).toContain('DELETE /sites/{id}');
    expect(page.csp).toMatch(/script-src 'self'\s*;/);
    expect(page.csp).toContain("frame-ancestors 'none'");
    expect(page.csp).not.toMatch(/https:|\*/);
  });

  it('lists the error answers of each route with their codes', async () => {
    const document = (await test.client().get('/docs/json')).body;
    const remove = document.paths['/sites/{id}'].delete.responses;
    const codes = (status: string) =>
      remove[status].content['application/json'].schema.properties.error.properties.code.enum;
    expect(codes('401')).toEqual(['unauthorized']);
    expect(codes('403')).toEqual(['forbidden', 'csrf_invalid']);
    expect(codes('404')).toEqual(['not_found']);
    expect(codes('429')).toEqual(['rate_limited']);
    expect(remove['4XX'] ?? remove['4xx']).toBeUndefined();
    // A public route lists no credential errors.
    expect(Object.keys(document.paths['/readyz'].get.responses)).toEqual(['200', '400', '429', '500', '503']);
  });
});
