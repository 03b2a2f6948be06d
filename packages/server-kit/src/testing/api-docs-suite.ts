import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeChromium, launchChromium, readApiDocsPage } from './chromium.ts';

/** What differs between the services whose API docs page the suite reads. */
export interface ApiDocsService {
  name: string;
  /** Starts the service: its API's base URL (the docs are at `<api>/docs`) and how to stop it. */
  start(): Promise<{ api: string; close(): Promise<void> }>;
  /** Operations the page must show, as `METHOD /path`. */
  operations: string[];
  /** Error codes each listed answer documents: `[path, method, status, codes]`. */
  errorCodes: [path: string, method: string, status: string, codes: string[]][];
  /** A route anyone may call: it lists no credential errors. */
  publicRoute: string;
}

type Operation = { responses: Record<string, { content: Record<string, { schema: any }> }> };

/** The service's API docs page in a real browser, and the error answers its OpenAPI document lists. */
export function apiDocsSuite(service: ApiDocsService): void {
  describe(`${service.name} API docs page`, () => {
    let running: { api: string; close(): Promise<void> };
    let browser: Browser;
    beforeAll(async () => {
      running = await service.start();
      browser = await launchChromium();
    });
    afterAll(async () => {
      await closeChromium(browser);
      await running?.close();
    });

    it('renders every operation in the browser under its own strict CSP', async () => {
      const page = await readApiDocsPage(browser, `${running.api}/docs`);
      expect(page.errors).toEqual([]);
      expect(page.operations).toEqual(expect.arrayContaining(service.operations));
      expect(page.csp).toMatch(/script-src 'self'\s*;/);
      expect(page.csp).toContain("frame-ancestors 'none'");
      expect(page.csp).not.toMatch(/https:|\*|'unsafe-inline'/);
    });

    it('lists the error answers of each route with their codes', async () => {
      const document = (await (await fetch(`${running.api}/docs/json`)).json()) as any;
      for (const [path, method, status, codes] of service.errorCodes) {
        const { responses } = document.paths[path][method] as Operation;
        expect(
          responses[status]!.content['application/json']!.schema.properties.error.properties.code.enum,
          `${method} ${path} ${status}`,
        ).toEqual(codes);
        expect(responses['4XX'] ?? responses['4xx']).toBeUndefined();
      }
      expect(Object.keys(document.paths[service.publicRoute].get.responses)).toEqual([
        '200',
        '400',
        '429',
        '500',
        '503',
      ]);
    });
  });
}
