import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { closeChromium, collectErrors, DESKTOP, launchChromium, newPage, PHONE } from './chromium.ts';

/** How long Swagger UI may take to render a tag's operations: seconds of CPU on a loaded machine. */
const API_DOCS_RENDER_MS = 60_000;

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
  /** The service's security schemes: every operation that needs credentials names only these. */
  schemes: string[];
  /** What "Try it out" is tried with: a key under `keyScheme`, and a signed-in session. */
  tryOut: {
    keyScheme: string;
    /** A key that may make `write`. */
    key(): Promise<string>;
    /** Signs in through the API with the browser context's cookie jar (as the web app does). */
    signIn(request: APIRequestContext): Promise<void>;
    /** Operations tried, as `METHOD /path`: with the key, a read and the write; signed in, the write and `sessionReads`. */
    read: string;
    write: string;
    sessionReads: string[];
  };
}

type Operation = {
  tags?: string[];
  responses: Record<string, { content: Record<string, { schema: any }> }>;
  security?: Record<string, string[]>[];
};
type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: any;
};

/** Opens the docs page and waits until it shows the document's tags (each opens to its operations). */
async function openApiDocs(page: Page, url: string) {
  const response = await page.goto(url, { timeout: API_DOCS_RENDER_MS });
  await page.waitForSelector('.opblock-tag', { timeout: API_DOCS_RENDER_MS });
  return response;
}

/** The operation's block (`METHOD /path`), its tag opened first when it is closed. */
async function showOperation(page: Page, document: OpenApiDocument, operation: string) {
  const [method, path] = operation.split(' ');
  const tag = document.paths[path!]![method!.toLowerCase()]!.tags![0]!;
  const heading = page.locator(`.opblock-tag[data-tag="${tag}"]`);
  if ((await heading.getAttribute('data-is-open')) !== 'true') await heading.click();
  const block = page
    .locator(`.opblock-${method!.toLowerCase()}`)
    .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
  await block.waitFor({ timeout: API_DOCS_RENDER_MS });
  return block;
}

async function authorize(page: Page, scheme: string, key: string) {
  await page.locator('.auth-wrapper .authorize').click();
  const container = page
    .locator('.auth-container')
    .filter({ has: page.locator('h4', { hasText: new RegExp(`^\\s*${scheme}\\b`) }) });
  await container.locator('input').fill(key);
  await container.locator('button.authorize').click();
  await container.getByText('Authorized', { exact: true }).waitFor();
  await page.locator('.modal-ux .close-modal').click();
}

/** Opens the operation, tries it out, and answers the status Swagger UI shows. */
async function tryOut(page: Page, document: OpenApiDocument, operation: string): Promise<string> {
  const block = await showOperation(page, document, operation);
  await block.locator('.opblock-summary').click();
  await block.locator('.try-out__btn').click();
  await block.locator('.execute').click();
  const status = block.locator('.live-responses-table .response .response-col_status');
  await status.waitFor({ timeout: API_DOCS_RENDER_MS });
  return `${operation} ${(await status.textContent())?.trim()}`;
}

/** The service's API docs page in a real browser, and the error answers its OpenAPI document lists. */
export function apiDocsSuite(service: ApiDocsService): void {
  describe(`${service.name} API docs page`, () => {
    let running: { api: string; close(): Promise<void> };
    let browser: Browser;
    let text: string;
    /** The service's document (OpenAPI 3.1), and the rendition the docs page reads. */
    let document: OpenApiDocument;
    let rendition: OpenApiDocument;
    beforeAll(async () => {
      running = await service.start();
      browser = await launchChromium();
      text = await (await fetch(`${running.api}/openapi.json`)).text();
      document = JSON.parse(text) as OpenApiDocument;
      rendition = (await (await fetch(`${running.api}/docs/json`)).json()) as OpenApiDocument;
    });
    afterAll(async () => {
      await closeChromium(browser);
      await running?.close();
    });

    it(
      'shows every tag, and the operations of a tag once opened, under its own strict CSP',
      async () => {
        const { context, page } = await newPage(browser, running.api);
        try {
          const errors = collectErrors(page);
          const csp = (await openApiDocs(page, `${running.api}/docs`))?.headers()['content-security-policy'];
          const tags = Object.values(document.paths).flatMap((operations) =>
            Object.values(operations).map((operation) => operation.tags![0]),
          );
          const shown = await page.$$eval('.opblock-tag', (headings) =>
            headings.map((heading) => heading.getAttribute('data-tag')),
          );
          expect(new Set(shown)).toEqual(new Set(tags));
          for (const operation of service.operations) await showOperation(page, document, operation);
          expect(errors).toEqual([]);
          expect(csp).toMatch(/script-src 'self'\s*;/);
          expect(csp).toContain("frame-ancestors 'none'");
          expect(csp).not.toMatch(/https:|\*|'unsafe-inline'/);
        } finally {
          await context.close();
        }
      },
      API_DOCS_RENDER_MS + 30_000,
    );

    it('sends its files and the document compressed, and Swagger UI the document as OpenAPI 3.0 with the same operations', async () => {
      for (const path of ['docs/static/swagger-ui-bundle.js', 'docs/json', 'openapi.json', 'openapi.yaml']) {
        for (const encoding of ['br', 'gzip']) {
          const answer = await fetch(`${running.api}/${path}`, { headers: { 'accept-encoding': encoding } });
          expect(answer.headers.get('content-encoding'), `${path} ${encoding}`).toBe(encoding);
          expect(answer.headers.get('vary')).toMatch(/accept-encoding/i);
          expect((await answer.text()).length).toBeGreaterThan(10_000);
        }
      }
      expect(document.openapi).toBe('3.1.0');
      expect(rendition.openapi).toBe('3.0.3');
      const operations = (doc: OpenApiDocument) =>
        Object.entries(doc.paths).flatMap(([path, methods]) =>
          Object.entries(methods).map(([method, operation]) => [
            method,
            path,
            operation.security,
            operation.tags,
          ]),
        );
      expect(operations(rendition)).toEqual(operations(document));
    });

    it('lists the error answers of each route with their codes', () => {
      for (const [path, method, status, codes] of service.errorCodes) {
        const { responses } = document.paths[path]![method]!;
        expect(
          responses[status]!.content['application/json']!.schema.properties.error.properties.code.enum,
          `${method} ${path} ${status}`,
        ).toEqual(codes);
        expect(responses['4XX'] ?? responses['4xx']).toBeUndefined();
      }
      expect(Object.keys(document.paths[service.publicRoute]!.get!.responses)).toEqual([
        '200',
        '400',
        '429',
        '500',
        '503',
      ]);
    });

    it("names the service's own credentials on every operation that needs them", () => {
      expect(Object.keys(document.components.securitySchemes).sort()).toEqual([...service.schemes].sort());
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const named = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
          // A route that refuses a missing or bad credential (401 unauthorized) names the credentials it takes.
          const codes =
            operation.responses['401']?.content['application/json']?.schema.properties.error.properties.code
              .enum;
          if (codes?.includes('unauthorized')) expect(named.length, `${method} ${path}`).toBeGreaterThan(0);
          for (const name of named) expect(service.schemes, `${method} ${path}`).toContain(name);
        }
      }
      expect(document.paths[service.publicRoute]!.get!.security ?? []).toEqual([]);
      if (service.name !== 'manager') expect(text).not.toContain('connect.sid');
    });

    for (const [width, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(
        `tries out a read and a write with a key, and a write signed in (${width})`,
        async () => {
          const withKey = await newPage(browser, running.api, viewport);
          const signedIn = await newPage(browser, running.api, viewport);
          // Each click re-renders what is open: seconds on a loaded machine.
          for (const { context } of [withKey, signedIn]) context.setDefaultTimeout(API_DOCS_RENDER_MS);
          try {
            await openApiDocs(withKey.page, `${running.api}/docs`);
            await authorize(withKey.page, service.tryOut.keyScheme, await service.tryOut.key());
            const keyed = [service.tryOut.read, service.tryOut.write];
            const keyAnswers: string[] = [];
            for (const operation of keyed) keyAnswers.push(await tryOut(withKey.page, document, operation));
            expect(keyAnswers).toEqual(
              keyed.map((operation) => expect.stringMatching(`^${operation} 2\\d\\d$`)),
            );

            await service.tryOut.signIn(signedIn.context.request);
            await openApiDocs(signedIn.page, `${running.api}/docs`);
            const sessionOps = [service.tryOut.write, ...service.tryOut.sessionReads];
            const sessionAnswers: string[] = [];
            for (const operation of sessionOps)
              sessionAnswers.push(await tryOut(signedIn.page, document, operation));
            expect(sessionAnswers).toEqual(
              sessionOps.map((operation) => expect.stringMatching(`^${operation} 2\\d\\d$`)),
            );
          } finally {
            await withKey.context.close();
            await signedIn.context.close();
          }
        },
        4 * API_DOCS_RENDER_MS,
      );
    }
  });
}
