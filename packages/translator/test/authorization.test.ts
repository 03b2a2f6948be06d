import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '@app/server-kit/testing';
import { operationsOf, type OpenApiDocument } from '@app/server-kit/testing/openapi-fuzz';
import { routesOf } from '@app/server-kit';
import { plainGet, serveOrigin, signedInMember, startHarness, type Harness } from './helpers.ts';
import { ScreenshotsRepository } from '../src/screenshots/screenshots-repository.ts';

const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The authorization matrix of the translator: every route of its API document × every kind of caller →
 * the status that caller gets, over the real server. A route without a row fails. Key callers' statuses
 * are written per row; a signed-in member's follow from the row's access and the rights of each role.
 */
const KEY_CALLERS = [
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
/** Dashboard accounts signed in with a session, each with its role in the project (translators for fr, one for de). */
const MEMBERS = ['owner', 'manager', 'reviewer', 'translator', 'translatorDe', 'viewer', 'stranger'] as const;
const CALLERS = [...KEY_CALLERS, ...MEMBERS] as const;
type KeyCaller = (typeof KEY_CALLERS)[number];
type Member = (typeof MEMBERS)[number];
type Caller = (typeof CALLERS)[number];
type Expectation = Record<KeyCaller, number>;
type Access = 'read' | 'translate' | 'review' | 'manage' | 'own';

/** What each role may do, as the roles are documented (the stranger belongs to another project). */
const MAY: Record<Exclude<Member, 'stranger'>, Access[]> = {
  owner: ['read', 'translate', 'review', 'manage', 'own'],
  manager: ['read', 'translate', 'review', 'manage'],
  reviewer: ['read', 'translate', 'review'],
  translator: ['read', 'translate'],
  translatorDe: ['read', 'translate'],
  viewer: ['read'],
};

interface Keys {
  id: number;
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
  /** The call ends the caller's session: a member signs in again after it. */
  consumesSession?: boolean;
  /** What a member needs (default: read for GET, manage otherwise). */
  access?: Access;
  /** The request concerns French: the German translator may not. */
  french?: boolean;
  /** Members' statuses where they do not follow from the access. */
  members?: Partial<Record<Member, number>>;
}

interface World {
  harness: Harness;
  main: Keys;
  other: Keys;
  stale: string;
  ids: { phrase: number; prompt: string; backup: string; frTranslation: number; target: number };
  sessions: Record<Member, Record<string, string>>;
  fresh(): Promise<Keys>;
  /** A pending AI job of the main project (no worker runs in this test), to read or cancel. */
  pendingJob(): Promise<string>;
  /** An AI job of the main project, cancelled. */
  cancelledJob(): Promise<string>;
  /** A new invitation to the main project: its id and token. */
  invite(): Promise<{ id: number; token: string }>;
}

const ALLOWED_ORIGIN = 'http://localhost:8080';

const each = (status: number, overrides: Partial<Expectation> = {}): Expectation => ({
  ...(Object.fromEntries(KEY_CALLERS.map((caller) => [caller, status])) as Expectation),
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

/** A member's status on a row: as anonymous on routes that are not the project's; else by role. */
function memberStatus(row: Row, member: Member): number {
  const explicit = row.members?.[member];
  if (explicit !== undefined) return explicit;
  if (row.expect.projectKey === row.expect.anonymous) return row.expect.anonymous;
  if (member === 'stranger') return 403;
  const access = row.access ?? (row.route.startsWith('GET ') ? 'read' : 'manage');
  if (!MAY[member].includes(access) || (member === 'translatorDe' && row.french)) return 403;
  return row.expect.projectKey;
}

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
    members: { stranger: 403 },
  },
  { route: 'PATCH /project', expect: keyRoute(200), request: fixed('/project', { name: 'Shop' }) },
  {
    route: 'POST /project/regenerate-key',
    expect: keyRoute(200),
    access: 'own',
    request: fixed('/project/regenerate-key'),
    consumesProject: true,
  },
  {
    route: 'POST /project/regenerate-page-key',
    expect: keyRoute(200),
    access: 'own',
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
    access: 'own',
    request: fixed('/project/reset-database'),
    consumesProject: true,
  },

  {
    route: 'POST /textnodes',
    expect: pageRoute(200),
    request: fixed('/textnodes', {
      url: `${ALLOWED_ORIGIN}/`,
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
    french: true,
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

  {
    route: 'GET /phrases/{id}/screenshot',
    expect: keyRoute(200, 404),
    request: fixed((w) => `/phrases/${w.ids.phrase}/screenshot`),
  },
  { route: 'GET /screenshots/status', expect: keyRoute(200), request: fixed('/screenshots/status') },
  // No worker runs here: the capture is only planned.
  { route: 'POST /screenshots/capture', expect: keyRoute(202), request: fixed('/screenshots/capture') },

  {
    route: 'GET /translations',
    expect: pageRoute(200),
    request: fixed('/translations?lang=fr'),
    french: true,
  },
  { route: 'GET /translations/all', expect: keyRoute(200), request: fixed('/translations/all') },
  {
    route: 'POST /translations',
    expect: keyRoute(200),
    access: 'translate',
    french: true,
    request: fixed('/translations', {
      lang: 'fr',
      translations: [{ key: 'Add to cart', context: '', value: 'Ajouter au panier' }],
    }),
  },
  {
    route: 'DELETE /translations/{id}',
    expect: keyRoute(200, 404),
    access: 'translate',
    french: true,
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
    access: 'review',
    french: true,
    request: fixed('/translations/state', (w: World) => ({ ids: [w.ids.frTranslation], state: 'reviewed' })),
  },
  {
    route: 'GET /translations/history',
    // Another project sees no entries for a phrase that is not its own.
    expect: keyRoute(200),
    french: true,
    request: fixed((w) => `/translations/history?phrase_id=${w.ids.phrase}&lang=fr`),
  },
  {
    route: 'POST /translations/history/{id}/revert',
    expect: keyRoute(200, 404),
    access: 'translate',
    french: true,
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
    french: true,
    request: fixed('/translations/memory?lang=fr&text=Hello'),
  },
  { route: 'GET /languages', expect: pageRoute(200), request: fixed('/languages') },
  { route: 'GET /languages/available', expect: keyRoute(200), request: fixed('/languages/available') },
  { route: 'GET /export', expect: keyRoute(200), request: fixed('/export') },
  { route: 'GET /export/{lang}', expect: keyRoute(200), request: fixed('/export/fr'), french: true },
  { route: 'GET /files/{lang}', expect: keyRoute(200), request: fixed('/files/fr?format=po'), french: true },
  { route: 'GET /glossary', expect: keyRoute(200), request: fixed('/glossary?lang=fr'), french: true },
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
    access: 'translate',
    french: true,
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
    // A French job: the German translator reads only the jobs of their languages.
    french: true,
  },
  {
    route: 'GET /ai-jobs/{jobId}/events',
    expect: keyRoute(200, 404),
    french: true,
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
    request: fixed(`/analytics/url-detail?url=${encodeURIComponent(`${ALLOWED_ORIGIN}/`)}`),
  },
  { route: 'GET /analytics/activity', expect: keyRoute(200), request: fixed('/analytics/activity') },
  {
    route: 'GET /analytics/phrase-detail',
    expect: keyRoute(200, 404),
    request: fixed((w) => `/analytics/phrase-detail?id=${w.ids.phrase}`),
  },

  { route: 'GET /backups', expect: keyRoute(200), request: fixed('/backups'), access: 'manage' },
  { route: 'POST /backups', expect: keyRoute(201), request: fixed('/backups') },
  {
    route: 'GET /backups/{filename}',
    expect: keyRoute(200, 404),
    access: 'manage',
    request: fixed((w) => `/backups/${w.ids.backup}`),
  },
  {
    route: 'DELETE /backups/{filename}',
    expect: keyRoute(200, 404),
    access: 'own',
    request: async (world) => ({
      path: `/backups/${(await client(world).post('/api/backups')).body.filename}`,
    }),
  },
  {
    route: 'POST /backups/{filename}/restore',
    expect: keyRoute(200, 404),
    access: 'own',
    request: fixed((w) => `/backups/${w.ids.backup}/restore?dryRun=true`),
  },
  // A JSON body is no backup file: the full key reaches the check (422), the others do not.
  {
    route: 'POST /backups/upload',
    expect: keyRoute(422),
    request: fixed('/backups/upload', {}),
    access: 'own',
  },
  { route: 'GET /backup', expect: keyRoute(200), request: fixed('/backup'), access: 'manage' },

  { route: 'GET /auth/providers', expect: open(200), request: fixed('/auth/providers') },
  {
    route: 'POST /auth/login',
    expect: each(401),
    request: fixed('/auth/login', { email: 'nobody@example.test', password: 'wrong password' }),
  },
  // Anyone may ask; only a session gets more than null.
  { route: 'GET /auth/session', expect: open(200), request: fixed('/auth/session') },
  { route: 'POST /auth/logout', expect: each(200), request: fixed('/auth/logout'), consumesSession: true },
  // No OpenID provider is configured here (sso.test.ts has one).
  { route: 'GET /auth/oidc/start', expect: each(404), request: fixed('/auth/oidc/start') },
  {
    route: 'GET /auth/oidc/callback',
    expect: each(404),
    request: fixed('/auth/oidc/callback?code=x&state=y'),
  },
  {
    route: 'POST /auth/edit-token',
    // For signed-in people only: no key of any kind gets one.
    expect: keyRoute(403),
    access: 'translate',
    request: fixed('/auth/edit-token', { url: `${ALLOWED_ORIGIN}/shop` }),
    members: { owner: 201, manager: 201, reviewer: 201, translator: 201, translatorDe: 201 },
  },
  {
    route: 'GET /invites/{token}',
    expect: open(200),
    request: async (world) => ({ path: `/invites/${(await world.invite()).token}` }),
  },
  {
    route: 'POST /invites/{token}/accept',
    expect: open(200),
    request: async (world) => ({
      path: `/invites/${(await world.invite()).token}/accept`,
      body: { name: 'New member', password: 'correct horse battery' },
    }),
  },
  { route: 'GET /members', expect: keyRoute(200), request: fixed('/members'), access: 'own' },
  {
    route: 'POST /members/invites',
    expect: keyRoute(201),
    access: 'own',
    request: () => ({
      path: '/members/invites',
      body: { email: `${unique('m').replace(' ', '')}@example.test`, role: 'viewer' },
    }),
  },
  {
    route: 'DELETE /members/invites/{id}',
    expect: keyRoute(200, 404),
    access: 'own',
    request: async (world) => ({ path: `/members/invites/${(await world.invite()).id}` }),
  },
  {
    route: 'PATCH /members/{accountId}',
    expect: keyRoute(200, 404),
    access: 'own',
    request: fixed((w) => `/members/${w.ids.target}`, { role: 'viewer' }),
  },
  {
    route: 'DELETE /members/{accountId}',
    expect: keyRoute(200, 404),
    access: 'own',
    request: async (world) => {
      const { accounts } = world.harness.translator.services;
      await accounts.repo.upsertMember(
        world.harness.translator.ctx.db,
        world.main.id,
        world.ids.target,
        'viewer',
        [],
      );
      return { path: `/members/${world.ids.target}` };
    },
  },
];

/**
 * SEO mode's routes (outside the API document): public pages of a project's site, reached through the
 * site's web server. On the site's host every caller gets the page — a key or a session changes nothing;
 * on the translator's own host every caller is refused (421), a signed-in owner included (issue 32).
 */
const SITE_HOST = 'shop.test:8080';
interface SeoRow {
  route: string;
  path(world: World): string;
  /** On the site's host, and on the translator's own. */
  site: number;
  own: number;
}
const seoPath = (rest: string) => (world: World) => `/seo/${world.main.id}${rest}`;
const SEO_ROWS: SeoRow[] = [
  { route: 'GET /seo/:projectId/sitemap.xml', path: seoPath('/sitemap.xml'), site: 200, own: 421 },
  { route: 'GET /seo/:projectId/:lang/sitemap.xml', path: seoPath('/fr/sitemap.xml'), site: 200, own: 421 },
  { route: 'GET /seo/:projectId/:lang', path: seoPath('/fr'), site: 200, own: 421 },
  { route: 'GET /seo/:projectId/:lang/*', path: seoPath('/fr/about'), site: 200, own: 421 },
  // Another project, whose SEO mode is off: the same for everyone.
  { route: 'GET /seo/:projectId/:lang/*', path: (w) => `/seo/${w.other.id}/fr/about`, site: 404, own: 421 },
];

describe('who may call what (translator)', () => {
  let world: World;
  /** Each member's account and sign-in, to add it to fresh projects and to sign in again. */
  const accounts = {} as Record<Member, { accountId: number; email: string; password: string }>;
  const ROLE_OF = {
    owner: ['owner', []],
    manager: ['manager', []],
    reviewer: ['reviewer', ['fr']],
    translator: ['translator', ['fr']],
    translatorDe: ['translator', ['de']],
    viewer: ['viewer', []],
  } as const;

  let origin: Awaited<ReturnType<typeof serveOrigin>>;
  beforeAll(async () => {
    // No job worker: an AI job stays pending, so it can be read and cancelled.
    const harness = await startHarness({}, { workers: false });
    origin = await serveOrigin({
      '*': { body: '<!doctype html><html><body><p>Fresh bread</p></body></html>' },
    });
    const keysOf = async (name: string, languages = ['fr']): Promise<Keys> => {
      const made = await harness.newProject(name);
      const project = (await made.client.get('/api/project')).body;
      await made.client.patch('/api/project/settings', {
        settings: {
          languages,
          allowedOrigins: [ALLOWED_ORIGIN],
          translationProviderApiKey: 'sk-test',
          screenshotsEnabled: true,
        },
      });
      return { id: made.id, key: made.key, pageKey: project.page_key };
    };
    const main = await keysOf('Main', ['fr', 'de']);
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
    // The phrase's screenshot, stored as a capture would (no browser runs in this test).
    await new ScreenshotsRepository(harness.translator.ctx.db).save(
      main.id,
      phrase,
      'https://shop.example/',
      {
        png: ONE_PIXEL_PNG,
        width: 1,
        height: 1,
      },
    );
    await mainClient.post('/api/translations', {
      lang: 'fr',
      translations: [{ id: phrase, value: 'Ajouter' }],
    });
    const frTranslation = (await mainClient.get('/api/translations/all?lang=fr')).body.rows[0]
      .translationId as number;
    const prompt = (await mainClient.post('/api/prompts', { name: 'Shop', text: 'Translate.' })).body
      .id as string;
    const backup = (await mainClient.post('/api/backups')).body.filename as string;
    const other = await keysOf('Other');
    await mainClient.patch('/api/project/settings', {
      settings: { seoOrigin: origin.url, seoPublicUrl: `http://${SITE_HOST}` },
    });

    const sessions = {} as Record<Member, Record<string, string>>;
    const keyClient = new TestClient(harness.url);
    keyClient.defaultHeaders['x-api-key'] = other.key;
    for (const member of MEMBERS) {
      const [role, languages] = member === 'stranger' ? (['viewer', []] as const) : ROLE_OF[member];
      const project =
        member === 'stranger' ? { client: keyClient, id: other.id } : { client: mainClient, id: main.id };
      const signed = await signedInMember(harness, role, [...languages], project);
      accounts[member] = signed;
      sessions[member] = {
        cookie: `translator_session=${signed.client.cookie('translator_session')}`,
        'x-csrf-token': signed.client.defaultHeaders['x-csrf-token']!,
      };
    }
    const target = (await signedInMember(harness, 'viewer', [], { client: mainClient, id: main.id }))
      .accountId;

    world = {
      harness,
      main,
      other,
      stale,
      ids: { phrase, prompt, backup, frTranslation, target },
      sessions,
      fresh: async () => {
        const keys = await keysOf(unique('Fresh'), ['fr', 'de']);
        for (const member of MEMBERS) {
          if (member === 'stranger') continue;
          const [role, languages] = ROLE_OF[member];
          await harness.translator.services.accounts.repo.upsertMember(
            harness.translator.ctx.db,
            keys.id,
            accounts[member].accountId,
            role,
            [...languages],
          );
        }
        return keys;
      },
      pendingJob: async () =>
        (await mainClient.post('/api/ai-jobs', { key_ids: [phrase], lang: 'fr' })).body.jobId as string,
      async cancelledJob() {
        const id = await this.pendingJob();
        await mainClient.delete(`/api/ai-jobs/${id}`);
        return id;
      },
      invite: async () => {
        const made = await mainClient.post('/api/members/invites', {
          email: `${unique('invitee').replace(' ', '')}@example.test`,
          role: 'viewer',
        });
        return { id: made.body.id as number, token: (made.body.path as string).split('/').at(-1)! };
      },
    };
  }, 120_000);
  afterAll(async () => {
    await world?.harness.stop();
    await origin?.close();
  });

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
      default:
        return { ...remote, ...world.sessions[caller], 'x-project-id': String(keys.id) };
    }
  };

  /** Signs a member in again after a call that ended its session. */
  async function signInAgain(member: Member) {
    const response = await fetch(`${world.harness.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: accounts[member].email, password: accounts[member].password }),
    });
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('translator_session='))!;
    world.sessions[member] = {
      cookie: cookie.split(';')[0]!,
      'x-csrf-token': ((await response.json()) as { csrfToken: string }).csrfToken,
    };
  }

  it('has one row for every route of the API document', async () => {
    const routes = operationsOf(
      (await world.harness.client.get('/api/openapi.json')).body as OpenApiDocument,
    );
    expect(ROWS.map((row) => row.route).sort()).toEqual(routes.sort());
  });

  it('has a row for every SEO route (outside the API document)', () => {
    const seo = routesOf(world.harness.translator.app)
      .filter(({ method, url }) => method === 'GET' && url.startsWith('/seo/'))
      .map(({ url }) => `GET ${url}`);
    expect([...new Set(SEO_ROWS.map((row) => row.route))].sort()).toEqual(seo.sort());
  });

  it('gives every caller the same answer on SEO pages: the page on the site’s host, 421 on the translator’s', async () => {
    const mismatches: string[] = [];
    const own = new URL(world.harness.url).host;
    for (const row of SEO_ROWS) {
      for (const caller of CALLERS) {
        for (const [host, expected] of [
          [SITE_HOST, row.site],
          [own, row.own],
        ] as const) {
          const path = row.path(world);
          const headers = { ...headersOf(caller, world.main, world.other), host };
          const answer = await plainGet(`${world.harness.url}${path}`, headers);
          if (answer.status !== expected)
            mismatches.push(`${path} on ${host} as ${caller}: ${answer.status}, expected ${expected}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

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
        const member = (MEMBERS as readonly string[]).includes(caller) ? (caller as Member) : undefined;
        const expected = member ? memberStatus(row, member) : row.expect[caller as KeyCaller];
        if (response.status !== expected) {
          mismatches.push(`${row.route} as ${caller}: ${response.status}, expected ${expected}`);
        }
        if (member && row.consumesSession) await signInAgain(member);
      }
    }
    expect(mismatches).toEqual([]);
  }, 600_000);
});
