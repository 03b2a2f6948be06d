import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, readApiDocsPage } from '@app/server-kit/testing/chromium';
import { startHarness, type Harness } from './helpers.ts';

describe('translator API docs page', () => {
  let h: Harness;
  let browser: Browser;
  beforeAll(async () => {
    h = await startHarness();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('renders every operation in the browser under its own strict CSP', async () => {
    const page = await readApiDocsPage(browser, `${h.url}/api/docs`);
    expect(page.errors).toEqual([]);
    expect(page.operations).toContain('GET /translations');
    expect(page.operations).toContain('POST /ai-jobs');
    expect(page.csp).toContain("frame-ancestors 'none'");
    expect(page.csp).not.toMatch(/https:|\*|'unsafe-inline'/);
  });

  it('lists the error answers of each route with their codes', async () => {
    const document = (await h.anonymous.get('/api/docs/json')).body;
    type Operation = { responses: Record<string, { content: Record<string, { schema: any }> }> };
    const codes = (operation: Operation, status: string) =>
      operation.responses[status]!.content['application/json']!.schema.properties.error.properties.code.enum;
    expect(codes(document.paths['/ai-jobs'].post, '401')).toEqual(['unauthorized']);
    expect(codes(document.paths['/ai-jobs'].post, '403')).toEqual(['page_key_not_allowed']);
    expect(codes(document.paths['/translations'].get, '403')).toEqual(['origin_not_allowed']);
    expect(codes(document.paths['/metrics'].get, '401')).toEqual(['unauthorized']);
    expect(Object.keys(document.paths['/livez'].get.responses)).toEqual(['200', '400', '429', '500', '503']);
  });
});
