import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type OpenApiDocument } from '@app/server-kit/testing/openapi-fuzz';
import { startHarness, type Harness } from './helpers.ts';

/**
 * The authorization matrix of the translator: every route of its API document × every kind of caller →
 * the status that caller gets, over the real server. A route without a row fails.
 */
const CALLERS = [
  /** On the translator's own host, without a key. */
  'local',
  /** Anywhere else, without a key. */
  'anonymous',
  /** The project's full key (the spec's X-API-Key). */
  'projectKey',
  /** Another project's full key: it reaches only its own project. */
  'otherKey',
  /** The project's publishable page key, from an allowed origin. */
  'pageKey',
  /** The page key from an origin the project does not allow. */
  'pageKeyElsewhere',
  /** A key replaced by regenerate-key. */
  'staleKey',
] as const;
type Caller = (typeof CALLERS)[number];
type Expectation = Record<Caller, number>;

interface Keys {
  key: string;
  pageKey: string;
}

interface Row {
  route: string;
  expect: Expectation;
  /** The path (below /api) and body. */
  request(world: World): Promise<{ path: string; body?: unknown }> | { path: string; body?: unknown };
  /** The call uses up its project (a new key, an emptied project): each call gets fresh projects. */
  consumesProject?: boolean;
}

interface World {
  harness: Harness;
  main: Keys;
  other: Keys;
  stale: string;
  ids: { phrase: number; prompt: string; backup: string };
  fresh(): Promise<Keys>;
  /** A pending AI job of the main project (no worker runs in this test), to read or cancel. */
  pendingJob(): Promise<string>;
  /** An AI job of the main project, cancelled. */
  cancelledJob(): Promise<string>;
}

const ALLOWED_ORIGIN = 'http://localhost:8080';

const each = (status: number, overrides: Partial<Expectation> = {}): Expectation => ({
  ...(Object.fromEntries(CALLERS.map((caller) => [caller, status])) as Expectation),
  ...overrides,
});
/** The project API: its full key (another project's reaches its own data), nothing else. */
const keyRoute = (status: number, otherKey = status) =>
  each(status, {
    local: 401,
    anonymous: 401,
    otherKey,
    pageKey: 403,
    pageKeyElsewhere: 403,
    staleKey: 401,
  });
/** The page client's routes: the full key, or the page key from an allowed origin. */
const pageRoute = (status: number) => ({ ...keyRoute(status), pageKey: status });
const open = (status: number) => each(status);

let serial = 0;
/** A name no other call used; in letters, since phrases turn numbers into slots. */
const unique = (prefix: string) =>
  `${prefix} ${(++serial).toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)]!)}`;

const fixed =
  (path: string | ((world: World) => string), body?: unknown | ((world: World) => unknown)) =>
  (world: World) => ({
    path: typeof path === 'function' ? path(world) : path,
    ...(body === undefined ? {} : { body: typeof body === 'function' ? body(world) : body }),
  });

const client = (world: World) => world.harness.client;
const newPhrase = async (world: World) => {
  const key = unique('Throwaway');
  await client(world).post('/api/textnodes', { url: 'https://shop.example/x', keys: [{ key, context: '' }] });
  const rows = (await client(world).get(`/api/translations/all?search=${encodeURIComponent(key)}`)).body.rows;
  return rows[0].id as number;
};

const ROWS: Row[] = [
  { route: 'GET /', expect: open(200), request: fixed('') },
  { route: 'GET /openapi.json', expect: open(200), request: fixed('/openapi.json') },
  { route: 'GET /openapi.yaml', expect: open(200), request: fixed('/openapi.yaml') },
  { route: 'GET /livez', expect: open(200), request: fixed('/livez') },
  { route: 'GET /readyz', expect: open(200), request: fixed('/readyz') },
  // Only the scraper's METRICS_TOKEN opens the metrics (observability.test.ts); no key of any kind does.
  { route: 'GET /metrics', expect: each(401), request: fixed('/metrics') },
  {
    route: 'GET /project',
    expect: { ...each(200), pageKey: 403, pageKeyElsewhere: 403, staleKey: 401 },
    request: fixed('/project'),
  },
  { route: 'PATCH /project', expect: keyRoute(200), request: fixed('/project', { name: 'Shop' }) },
  {
    route: 'POST /project/regenerate-key',
    expect: keyRoute(200),
    request: fixed('/project/regenerate-key'),
    consumesProject: true,
  },
  {
    route: 'POST /project/regenerate-page-key',
    expect: keyRoute(200),
    request: fixed('/project/regenerate-page-key'),
    consumesProject: true,
  },
  {
    route: 'DELETE /project/full-key-warning',
    expect: keyRoute(200),
    request: fixed('/project/full-key-warning'),
  },
  {
    route: 'PATCH /project/settings',
    expect: keyRoute(200),
    request: fixed('/project/settings', { settings: { contextDepth: 2 } }),
  },
  { route: 'GET /project/crawler-config', expect: pageRoute(200), request: fixed('/project/crawler-config') },
  {
    route: 'POST /project/reset-database',
    expect: keyRoute(200),
    request: fixed('/project/reset-database'),
    consumesProject: true,
  },

  {
    route: 'POST /textnodes',
    expect: pageRoute(200),
    request: fixed('/textnodes', {
      url: 'https://shop.example/',
      keys: [{ key: 'Add to cart', context: '' }],
    }),
  },
  { route: 'GET /translations/counts', expect: keyRoute(200), request: fixed('/translations/counts') },
  {
    route: 'PATCH /textnodes/status',
    // Another project's ids are not its own: nothing of this project changes, and it says so.
    expect: keyRoute(200),
    request: fixed('/textnodes/status', (w: World) => ({ ids: [w.ids.phrase], status: 'approved' })),
  },
  {
    route: 'GET /textnodes/untranslated-ids',
    expect: keyRoute(200),
    request: fixed('/textnodes/untranslated-ids?lang=fr'),
  },
  {
    route: 'POST /textnodes/bulk-delete',
    expect: keyRoute(200),
    request: async (world) => ({ path: '/textnodes/bulk-delete', body: { ids: [await newPhrase(world)] } }),
  },
  {
    route: 'POST /textnodes/clear-pending',
    expect: keyRoute(200),
    request: fixed('/textnodes/clear-pending'),
    consumesProject: true,
  },
  {
    route: 'DELETE /textnodes/{id}',
    expect: keyRoute(200, 404),
    request: async (world) => ({ path: `/textnodes/${await newPhrase(world)}` }),
  },
  {
    route: 'PATCH /phrases/{id}',
    expect: keyRoute(200, 404),
    request: fixed((w) => `/phrases/${w.ids.phrase}`, { key: 'Add to cart', varSlots: [] }),
  },

  { route: 'GET /translations', expect: pageRoute(200), request: fixed('/translations?lang=fr') },
  { route: 'GET /translations/all', expect: keyRoute(200), request: fixed('/translations/all') },
  {
    route: 'POST /translations',
    expect: keyRoute(200),
    request: fixed('/translations', {
      lang: 'fr',
      translations: [{ key: 'Add to cart', context: '', value: 'Ajouter au panier' }],
    }),
  },
  {
    route: 'DELETE /translations/{id}',
    expect: keyRoute(200, 404),
    request: async (world) => {
      const id = await newPhrase(world);
      const key = (await client(world).get(`/api/analytics/phrase-detail?id=${id}`)).body.key;
      await client(world).patch('/api/textnodes/status', { ids: [id], status: 'approved' });
      await client(world).post('/api/translations', {
        lang: 'fr',
        translations: [{ key, context: '', value: 'x' }],
      });
      const row = (await client(world).get(`/api/translations/all?lang=fr&search=${encodeURIComponent(key)}`))
        .body.rows[0];
      return { path: `/translations/${row.translationId}` };
    },
  },
  {
    route: 'PATCH /translations/state',
    // Another project's ids are not its own: nothing changes, and `updated` says so.
    expect: keyRoute(200),
    request: fixed('/translations/state', { ids: [1], state: 'reviewed' }),
  },
  {
    route: 'GET /translations/history',
    // Another project sees no entries for a phrase that is not its own.
    expect: keyRoute(200),
    request: fixed((w) => `/translations/history?phrase_id=${w.ids.phrase}&lang=fr`),
  },
  {
    route: 'POST /translations/history/{id}/revert',
    expect: keyRoute(200, 404),
    request: async (world) => {
      const id = await newPhrase(world);
      await client(world).post('/api/translations', { lang: 'fr', translations: [{ id, value: 'x' }] });
      const history = await client(world).get(`/api/translations/history?phrase_id=${id}&lang=fr`);
      return { path: `/translations/history/${history.body.entries[0].id}/revert` };
    },
  },
  {
    route: 'GET /translations/memory',
    // Another project's lookup answers from its own memory (tested in memory.test.ts).
    expect: keyRoute(200),
    request: fixed('/translations/memory?lang=fr&text=Hello'),
  },
  { route: 'GET /languages', expect: pageRoute(200), request: fixed('/languages') },
  { route: 'GET /languages/available', expect: keyRoute(200), request: fixed('/languages/available') },
  { route: 'GET /export', expect: keyRoute(200), request: fixed('/export') },
  { route: 'GET /export/{lang}', expect: keyRoute(200), request: fixed('/export/fr') },
  { route: 'GET /files/{lang}', expect: keyRoute(200), request: fixed('/files/fr?format=po') },
  { route: 'GET /glossary', expect: keyRoute(200), request: fixed('/glossary?lang=fr') },
  {
    route: 'POST /glossary',
    // Another project has fr too: it gets a term of its own.
    expect: keyRoute(201),
    request: () => ({ path: '/glossary', body: { term: unique('Term'), lang: 'fr', translation: 'Terme' } }),
  },
  {
    route: 'PATCH /glossary/{id}',
    expect: keyRoute(200, 404),
    request: async (world) => {
      const term = await client(world).post('/api/glossary', { term: unique('Term'), doNotTranslate: true });
      return { path: `/glossary/${term.body.id}`, body: { note: 'Checked' } };
    },
  },
  {
    route: 'DELETE /glossary/{id}',
    expect: keyRoute(200, 404),
    request: async (world) => {
      const term = await client(world).post('/api/glossary', { term: unique('Term'), doNotTranslate: true });
      return { path: `/glossary/${term.body.id}` };
    },
  },
  {
    route: 'POST /files/{lang}',
    // A dry run of a file naming a phrase of the main project: another project reports it unknown.
    expect: keyRoute(200),
    request: fixed('/files/fr?format=json&dryRun=true', { Throwaway: 'Jetable' }),
  },

  {
    route: 'POST /ai-jobs',
    // Another project has no such phrases: 422 unknown_phrase, nothing started.
    expect: keyRoute(202, 422),
    request: fixed('/ai-jobs', (w: World) => ({ key_ids: [w.ids.phrase], lang: 'fr' })),
  },
  { route: 'GET /ai-jobs', expect: keyRoute(200), request: fixed('/ai-jobs') },
  { route: 'GET /ai-jobs/log', expect: keyRoute(200), request: fixed('/ai-jobs/log') },
  {
    route: 'GET /ai-jobs/{jobId}',
    expect: keyRoute(200, 404),
    request: async (world) => ({ path: `/ai-jobs/${await world.pendingJob()}` }),
  },
  {
    route: 'GET /ai-jobs/{jobId}/events',
    expect: keyRoute(200, 404),
    // A cancelled job: its stream sends the progress and the status, and ends.
    request: async (world) => ({ path: `/ai-jobs/${await world.cancelledJob()}/events` }),
  },
  {
    route: 'DELETE /ai-jobs/{jobId}',
    expect: keyRoute(200, 404),
    request: async (world) => ({ path: `/ai-jobs/${await world.pendingJob()}` }),
  },

  { route: 'GET /prompts', expect: keyRoute(200), request: fixed('/prompts') },
  {
    route: 'POST /prompts',
    expect: keyRoute(201),
    request: () => ({ path: '/prompts', body: { name: unique('Prompt'), text: 'Translate.' } }),
  },
  {
    route: 'PUT /prompts/{id}',
    expect: keyRoute(200, 404),
    request: fixed((w) => `/prompts/${w.ids.prompt}`, { text: 'Translate for a shop.' }),
  },
  {
    route: 'DELETE /prompts/{id}',
    expect: keyRoute(200, 404),
    request: async (world) => ({
      path: `/prompts/${(await client(world).post('/api/prompts', { name: unique('Gone'), text: 'x' })).body.id}`,
    }),
  },

  { route: 'GET /analytics', expect: keyRoute(200), request: fixed('/analytics') },
  { route: 'GET /analytics/languages', expect: keyRoute(200), request: fixed('/analytics/languages') },
  { route: 'GET /analytics/quality', expect: keyRoute(200), request: fixed('/analytics/quality') },
  { route: 'GET /analytics/urls', expect: keyRoute(200), request: fixed('/analytics/urls') },
  {
    route: 'GET /analytics/url-detail',
    expect: keyRoute(200),
    request: fixed(`/analytics/url-detail?url=${encodeURIComponent('https://shop.example/')}`),
  },
  { route: 'GET /analytics/activity', expect: keyRoute(200), request: fixed('/analytics/activity') },
  {
    route: 'GET /analytics/phrase-detail',
    expect: keyRoute(200, 404),
    request: fixed((w) => `/analytics/phrase-detail?id=${w.ids.phrase}`),
  },

  { route: 'GET /backups', expect: keyRoute(200), request: fixed('/backups') },
  { route: 'POST /backups', expect: keyRoute(201), request: fixed('/backups') },
  {
    route: 'GET /backups/{filename}',
    expect: keyRoute(200, 404),
    request: fixed((w) => `/backups/${w.ids.backup}`),
  },
  {
    route: 'DELETE /backups/{filename}',
    expect: keyRoute(200, 404),
    request: async (world) => ({
      path: `/backups/${(await client(world).post('/api/backups')).body.filename}`,
    }),
  },
  {
    route: 'POST /backups/{filename}/restore',
    expect: keyRoute(200, 404),
    request: fixed((w) => `/backups/${w.ids.backup}/restore?dryRun=true`),
  },
  // A JSON body is no backup file: the full key reaches the check (422), the others do not.
  { route: 'POST /backups/upload', expect: keyRoute(422), request: fixed('/backups/upload', {}) },
  { route: 'GET /backup', expect: keyRoute(200), request: fixed('/backup') },
];

describe('who may call what (translator)', () => {
  let world: World;
  beforeAll(async () => {
    // No job worker: an AI job stays pending, so it can be read and cancelled.
    const harness = await startHarness({}, { workers: false });
    const keysOf = async (name: string): Promise<Keys> => {
      const made = await harness.newProject(name);
      const project = (await made.client.get('/api/project')).body;
      await made.client.patch('/api/project/settings', {
        settings: {
          languages: ['fr'],
          allowedOrigins: [ALLOWED_ORIGIN],
          translationProviderApiKey: 'sk-test',
        },
      });
      return { key: made.key, pageKey: project.page_key };
    };
    const main = await keysOf('Main');
    const stale = main.key;
    const mainClient = harness.client;
    mainClient.defaultHeaders['x-api-key'] = main.key;
    main.key = (await mainClient.post('/api/project/regenerate-key')).body.api_key;
    mainClient.defaultHeaders['x-api-key'] = main.key;
    await mainClient.post('/api/textnodes', {
      url: 'https://shop.example/',
      keys: [{ key: 'Add to cart', context: '' }],
    });
    const phrase = (await mainClient.get('/api/translations/all')).body.rows[0].id as number;
    await mainClient.patch('/api/textnodes/status', { ids: [phrase], status: 'approved' });
    const prompt = (await mainClient.post('/api/prompts', { name: 'Shop', text: 'Translate.' })).body
      .id as string;
    const backup = (await mainClient.post('/api/backups')).body.filename as string;
    world = {
      harness,
      main,
      other: await keysOf('Other'),
      stale,
      ids: { phrase, prompt, backup },
      fresh: () => keysOf(unique('Fresh')),
      pendingJob: async () =>
        (await mainClient.post('/api/ai-jobs', { key_ids: [phrase], lang: 'fr' })).body.jobId as string,
      async cancelledJob() {
        const id = await this.pendingJob();
        await mainClient.delete(`/api/ai-jobs/${id}`);
        return id;
      },
    };
  }, 60_000);
  afterAll(() => world?.harness.stop());

  const headersOf = (caller: Caller, keys: Keys, other: Keys): Record<string, string> => {
    if (caller === 'local') return {};
    const remote = { 'x-forwarded-for': '203.0.113.7' };
    switch (caller) {
      case 'anonymous':
        return remote;
      case 'projectKey':
        return { ...remote, 'x-api-key': keys.key };
      case 'otherKey':
        return { ...remote, 'x-api-key': other.key };
      case 'pageKey':
        return { ...remote, 'x-api-key': keys.pageKey, origin: ALLOWED_ORIGIN };
      case 'pageKeyElsewhere':
        return { ...remote, 'x-api-key': keys.pageKey, origin: 'https://elsewhere.example' };
      case 'staleKey':
        return { ...remote, 'x-api-key': world.stale };
    }
  };

  it('has one row for every route of the API document', async () => {
    const routes = operationsOf(
      (await world.harness.client.get('/api/openapi.json')).body as OpenApiDocument,
    );
    expect(ROWS.map((row) => row.route).sort()).toEqual(routes.sort());
  });

  it('gives every caller the status its row says, on every route', async () => {
    const mismatches: string[] = [];
    for (const row of ROWS) {
      const [method] = row.route.split(' ') as [string];
      for (const caller of CALLERS) {
        const keys = row.consumesProject ? await world.fresh() : world.main;
        const other = row.consumesProject ? await world.fresh() : world.other;
        const { path, body } = await row.request(world);
        const response = await fetch(`${world.harness.url}/api${path}`, {
          method,
          headers: {
            ...headersOf(caller, keys, other),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        await response.body?.cancel();
        if (response.status !== row.expect[caller]) {
          mismatches.push(`${row.route} as ${caller}: ${response.status}, expected ${row.expect[caller]}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 300_000);
});
