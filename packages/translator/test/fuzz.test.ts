import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzOpenApi, type OpenApiDocument } from '@app/server-kit/testing/openapi-fuzz';
import type { TestClient } from '@app/server-kit/testing';
import { serveOrigin, startHarness, type Harness } from './helpers.ts';
import { LanguageParams, SiteParams } from '../src/routes/seo.ts';

/** Path parameters of a route schema, as an OpenAPI document lists them. */
const pathParameters = (schema: { properties: Record<string, unknown> }) =>
  Object.entries(schema.properties).map(([name, value]) => ({
    name,
    in: 'path' as const,
    required: true,
    schema: value as Record<string, unknown>,
  }));
const language = pathParameters(LanguageParams);
/**
 * SEO mode's routes, which the API document leaves out (they are the site's pages, not the API): the
 * same hostile input, from the site's host and from the translator's own.
 */
const SEO_DOCUMENT: OpenApiDocument = {
  servers: [{ url: '' }],
  paths: {
    '/seo/{projectId}/sitemap.xml': { get: { parameters: pathParameters(SiteParams) } },
    '/seo/{projectId}/{lang}/sitemap.xml': { get: { parameters: language } },
    '/seo/{projectId}/{lang}': { get: { parameters: language } },
    '/seo/{projectId}/{lang}/{path}': {
      get: {
        parameters: [...language, { name: 'path', in: 'path', required: true, schema: { type: 'string' } }],
      },
    },
  },
};
const SITE_HOST = 'shop.test:8080';

/**
 * Every operation of the translator's OpenAPI document gets hostile input from the project's key holder,
 * another project's key holder, the page key from an allowed page and an anonymous remote caller: no 5xx, no hang, every 4xx in the
 * envelope, no stack trace — and the project's data made before the run reads back unchanged.
 */
describe('translator API under hostile input', () => {
  let harness: Harness;
  let other: { client: TestClient; key: string };
  let origin: Awaited<ReturnType<typeof serveOrigin>>;
  const ids = { phrase: '', translation: '', prompt: '', backup: '' };

  beforeAll(async () => {
    harness = await startHarness();
    const { client } = harness;
    other = await harness.newProject('Other');
    // SEO mode on, its site's origin answering every path with a page.
    origin = await serveOrigin({ '*': { body: '<!doctype html><title>Shop</title><p>Fresh bread</p>' } });
    await client.patch('/api/project/settings', {
      settings: { languages: ['fr', 'de'], seoOrigin: origin.url, seoPublicUrl: `http://${SITE_HOST}` },
    });
    await client.post('/api/textnodes', {
      url: 'https://shop.example/',
      keys: [
        { key: 'Add to cart', context: '' },
        { key: 'Only 3 left', context: 'stock' },
        { key: 'Checkout', context: '' },
      ],
    });
    const rows = (await client.get('/api/translations/all?limit=10')).body.rows as {
      id: number;
      key: string;
    }[];
    await client.patch('/api/textnodes/status', { ids: rows.map((row) => row.id), status: 'approved' });
    await client.post('/api/translations', {
      lang: 'fr',
      translations: [{ key: 'Add to cart', context: '', value: 'Ajouter au panier' }],
    });
    const fr = (await client.get('/api/translations/all?lang=fr&limit=10')).body.rows as {
      id: number;
      key: string;
      translationId?: number;
    }[];
    const prompt = (await client.post('/api/prompts', { name: 'Shop', text: 'Translate for a shop.' })).body;
    const backup = (await client.post('/api/backups')).body;
    ids.phrase = String(rows[0]!.id);
    ids.translation = String(fr.find((row) => row.translationId)?.translationId ?? 1);
    ids.prompt = String(prompt.id);
    ids.backup = String(backup.filename);
  }, 60_000);
  afterAll(async () => {
    await harness?.stop();
    await origin?.close();
  });

  /** What the project looks like to its key holder. */
  const snapshot = async () => {
    const read = async (path: string) => {
      const response = await harness.client.get(path);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      return response.body;
    };
    const project = await read('/api/project');
    return {
      project,
      other: (await other.client.get('/api/project')).body,
      phrases: await read('/api/translations/all?limit=100&lang=fr'),
      delivered: await read('/api/translations?lang=fr'),
      prompts: await read('/api/prompts'),
      backups: (await read('/api/backups')).filter(
        (backup: { filename: string }) => backup.filename === ids.backup,
      ),
      counts: await read('/api/translations/counts'),
    };
  };

  it('answers every operation in the envelope, never 5xx, and changes nothing it was not asked to', async () => {
    const before = await snapshot();
    const document = (await harness.client.get('/api/openapi.json')).body as OpenApiDocument;
    const real: Record<string, string> = {
      id: ids.phrase,
      jobId: '00000000-0000-4000-8000-000000000000',
      filename: ids.backup,
      lang: 'fr',
    };
    const report = await fuzzOpenApi({
      origin: harness.url,
      document,
      callers: [
        { name: 'project key', headers: { 'x-api-key': harness.key }, careful: true },
        { name: "another project's key", headers: { 'x-api-key': other.key }, careful: true },
        {
          name: 'page key from an allowed origin',
          headers: { 'x-api-key': harness.pageKey, origin: 'http://localhost:8080' },
          careful: true,
        },
        { name: 'anonymous', headers: { 'x-forwarded-for': '203.0.113.7' }, careful: false },
      ],
      guarded: (operation) =>
        [
          'PATCH /project',
          'POST /project/regenerate-key',
          'PATCH /project/settings',
          'POST /project/reset-database',
          'POST /textnodes/clear-pending',
          'PATCH /textnodes/status',
          'POST /textnodes/bulk-delete',
          'POST /translations',
          // A new default prompt makes the old one an ordinary prompt.
          'POST /prompts',
        ].includes(operation),
      realPathValue: (path, name) => {
        if (name !== 'id') return real[name];
        if (path.startsWith('/translations/')) return ids.translation;
        if (path.startsWith('/prompts/')) return ids.prompt;
        return ids.phrase;
      },
    });
    expect(report.requests).toBeGreaterThan(1000);
    expect(report.findings).toEqual([]);
    expect(await snapshot()).toEqual(before);
  }, 600_000);

  it('answers SEO mode’s routes in the envelope on both hosts, never 5xx', async () => {
    const projectId = String(harness.translator.defaultProject.project.id);
    const report = await fuzzOpenApi({
      origin: harness.url,
      document: SEO_DOCUMENT,
      callers: [
        { name: 'anonymous on the site’s host', headers: { host: SITE_HOST }, careful: false },
        { name: 'anonymous on the translator’s host', headers: {}, careful: false },
      ],
      realPathValue: (_path, name) => ({ projectId, lang: 'fr', path: 'about' })[name],
    });
    expect(report.requests).toBeGreaterThan(50);
    expect(report.findings).toEqual([]);
  }, 300_000);
});
