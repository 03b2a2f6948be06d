import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_ERRORS, type ErrorCatalogue } from '../error-catalogue.ts';

/** What differs between the services whose error catalogue the suite holds against their API document. */
export interface CatalogueService {
  name: string;
  catalogue: ErrorCatalogue;
  /** Starts the service: its API's base URL (the document is at `<api>/docs/json`) and how to stop it. */
  start(): Promise<{ api: string; close(): Promise<void> }>;
  /** The service's source folder, searched for errors built past the catalogue. */
  sourceDir: string;
}

type Document = {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, any> }> }>>;
};

/** Every `code status` pair the document lists, with the route it was first seen on. */
function documentedCodes(document: Document): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        // Under each media type the route produces (a stream's errors are listed under text/event-stream).
        const codes: string[] = Object.values(response.content ?? {}).flatMap(
          (media) => media.schema?.properties?.error?.properties?.code?.enum ?? [],
        );
        for (const code of codes)
          if (!pairs.has(`${code} ${status}`)) pairs.set(`${code} ${status}`, `${method} ${path}`);
      }
    }
  }
  return pairs;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file));
}

/** A service's errors: each catalogued code is documented under its status, and none escapes the catalogue. */
export function errorCatalogueSuite(service: CatalogueService): void {
  describe(`${service.name} error catalogue`, () => {
    let running: { api: string; close(): Promise<void> };
    let documented: Map<string, string>;
    beforeAll(async () => {
      running = await service.start();
      documented = documentedCodes((await (await fetch(`${running.api}/docs/json`)).json()) as Document);
    });
    afterAll(async () => {
      await running?.close();
    });

    it('lists every catalogued code on some route of the API document, under the catalogue’s status', () => {
      // A generic code is documented only where the service answers with it, by the rules of openapi-errors.ts.
      const undocumented = Object.entries(service.catalogue)
        .filter(([code, entry]) => !(code in BASE_ERRORS) && !entry.hidden)
        .filter(([code, { status }]) => !documented.has(`${code} ${status}`))
        .map(([code, { status }]) => `${code} ${status}`);
      expect(undocumented).toEqual([]);
    });

    it('documents no code outside the catalogue, nor a catalogued code under another status', () => {
      const strays = [...documented]
        .filter(([pair]) => {
          const [code, status] = pair.split(' ');
          const entry = service.catalogue[code!];
          return !entry || (entry.status !== Number(status) && entry.alsoStatus !== Number(status));
        })
        .map(([pair, route]) => `${pair} (${route})`);
      expect(strays).toEqual([]);
    });

    it('builds every error of its own through the catalogue', () => {
      const bypasses: string[] = [];
      for (const file of sourceFiles(service.sourceDir)) {
        const text = readFileSync(file, 'utf8');
        if (/new AppError\(|errorBody\(/.test(text))
          bypasses.push(`${file}: builds an error without the catalogue`);
        for (const [, status, code] of text.matchAll(/statusCode: (\d+), code: '(\w+)'/g)) {
          if (service.catalogue[code!]?.status !== Number(status))
            bypasses.push(`${file}: ${status} ${code}`);
        }
      }
      expect(bypasses).toEqual([]);
    });
  });
}
