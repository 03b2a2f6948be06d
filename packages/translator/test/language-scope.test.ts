import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@app/server-kit/testing';
import { operationsOf, type OpenApiDocument } from '@app/server-kit/testing/openapi-fuzz';
import { signedInMember, startHarness, type Harness } from './helpers.ts';

// A translator for French sees and edits French only: walked over every GET route of the API document
// (so a new route is walked too), nothing German — a translation, its history, a memory entry, a
// glossary term — reaches a French-only translator, whatever the route and whatever it is asked.

/** In every German text of the project, and in no other language's. */
const GERMAN = 'Zwetschgendatschi';
const PAGE = 'http://localhost:8080/bakery';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { default?: unknown };
}

let h: Harness;
let translator: TestClient;
let document: OpenApiDocument;
/** A value for each parameter name a GET route takes. */
let values: Record<string, string>;

beforeAll(async () => {
  h = await startHarness({}, { workers: false });
  const key = h.client;
  await key.patch('/api/project/settings', {
    settings: { languages: ['fr', 'de'], translationProviderApiKey: 'sk-test' },
  });
  await key.post('/api/textnodes', { keys: [{ key: 'Plum cake today' }, { key: 'Fresh bread' }], url: PAGE });
  const rows = (await key.get('/api/translations/all')).body.rows as { id: number; key: string }[];
  const ids = rows.map((row) => row.id);
  await key.patch('/api/textnodes/status', { ids, status: 'approved' });
  const save = (lang: string, value: string) =>
    key.post('/api/translations', { lang, translations: [{ key: 'Plum cake today', value }] });
  await save('fr', 'Gâteau aux prunes aujourd’hui');
  // Twice, for a history; saved by a person, so the memory keeps it too.
  await save('de', `${GERMAN} heute`);
  await save('de', `${GERMAN} heute frisch`);
  await key.post('/api/glossary', { term: 'Plum cake', lang: 'de', translation: GERMAN });
  await key.post('/api/glossary', { term: 'Plum cake', lang: 'fr', translation: 'Gâteau aux prunes' });
  const job = async (lang: string) =>
    (await key.post('/api/ai-jobs', { key_ids: ids, lang })).body.jobId as string;
  // A pending German job for the lists; finished ones (their event streams end) to ask for by id.
  await job('de');
  const german = await job('de');
  const french = await job('fr');
  await key.delete(`/api/ai-jobs/${german}`);
  await key.delete(`/api/ai-jobs/${french}`);
  const invite = await key.post('/api/members/invites', {
    email: 'de@example.test',
    role: 'translator',
    languages: ['de'],
  });
  values = {
    id: String(rows.find((row) => row.key === 'Plum cake today')!.id),
    phrase_id: String(rows.find((row) => row.key === 'Plum cake today')!.id),
    // The German job is asked for in the German pass.
    jobId: french,
    germanJob: german,
    filename: 'translator-p1-2026-01-01T00-00-00-000Z.sqlite',
    token: (invite.body.path as string).split('/').at(-1)!,
    lang: 'fr',
    text: 'Plum cake today',
    url: PAGE,
    format: 'po',
  };
  translator = (await signedInMember(h, 'translator', ['fr'])).client;
  document = (await key.get('/api/openapi.json')).body as OpenApiDocument;
});
afterAll(async () => h?.stop());

/** Every GET route, as `/api…` addresses with its parameters filled: required only, all we know, and in German. */
function addresses(path: string, parameters: Parameter[]) {
  const fill = (which: Parameter[], german: boolean) => {
    const value = (name: string) => {
      if (german && name === 'lang') return 'de';
      if (german && name === 'jobId') return values.germanJob!;
      const known = values[name] ?? parameters.find((p) => p.name === name)?.schema?.default;
      if (known === undefined) throw new Error(`no value for the parameter ${name} of GET ${path}: add one`);
      return String(known);
    };
    let address = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(value(name)));
    const query = new URLSearchParams(
      which.filter((p) => p.in === 'query').map((p): [string, string] => [p.name, value(p.name)]),
    ).toString();
    if (query) address += `?${query}`;
    return `/api${address}`;
  };
  const required = parameters.filter((p) => p.in === 'path' || p.required);
  const known = parameters.filter((p) => p.in === 'path' || p.required || values[p.name] !== undefined);
  const german = known.some((p) => p.name === 'lang' || p.name === 'jobId');
  return [fill(required, false), fill(known, false), ...(german ? [fill(known, true)] : [])];
}

describe('a French-only translator', () => {
  it('reads nothing German on any GET route of the API document', async () => {
    const routes = operationsOf(document).filter((route) => route.startsWith('GET '));
    const leaks: string[] = [];
    const walked = new Set<string>();
    for (const route of routes) {
      const path = route.slice(4);
      const parameters = (document.paths[path]!.get as { parameters?: Parameter[] }).parameters ?? [];
      for (const address of new Set(addresses(path, parameters))) {
        const response = await translator.request('GET', address);
        expect(response.status, address).toBeLessThan(500);
        if (response.text.includes(GERMAN)) leaks.push(`${address}: ${response.status}`);
        walked.add(route);
      }
    }
    expect(leaks).toEqual([]);
    expect(walked.size).toBe(routes.length);
    // The walk would see German where there is some: the full key reads it.
    expect((await h.client.get('/api/export')).text).toContain(GERMAN);
  });

  it('gets the export, the phrase detail, coverage and counts of French alone', async () => {
    const exported = await translator.get('/api/export');
    expect(exported.body.languages).toEqual(['fr']);
    expect(Object.keys(exported.body.translations)).toEqual(['fr']);
    const detail = await translator.get(`/api/analytics/phrase-detail?id=${values.id}`);
    expect(detail.body.translations).toEqual([{ lang: 'fr', value: 'Gâteau aux prunes aujourd’hui' }]);
    const coverage = await translator.get('/api/analytics/languages');
    expect(coverage.body).toEqual([{ lang: 'fr', translated: 1, coverage: 50 }]);
    const summary = await translator.get('/api/analytics');
    expect(summary.body).toMatchObject({ languageCount: 1, totalTranslations: 1 });
    const quality = await translator.get('/api/analytics/quality');
    expect(quality.body.byLanguage.map((row: { lang: string }) => row.lang)).toEqual(['fr']);
    const glossary = await translator.get('/api/glossary');
    expect(glossary.body.map((term: { lang: string }) => term.lang)).toEqual(['fr']);
    expect((await translator.get('/api/ai-jobs')).body.jobs).toEqual([]);
    expect((await translator.get(`/api/ai-jobs/${values.germanJob}`)).status).toBe(403);
    expect((await translator.get('/api/ai-jobs/log')).body.map((job: { lang: string }) => job.lang)).toEqual([
      'fr',
    ]);
    expect((await h.client.get('/api/ai-jobs')).body.jobs.map((job: { lang: string }) => job.lang)).toEqual([
      'de',
    ]);
  });
});
