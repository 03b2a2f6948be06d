import { join } from 'node:path';
import { sql } from 'kysely';
import { createTestDatabase, TestClient, type TestDatabase } from '@app/server-kit/testing';
import { buildTranslator, type Translator, type TranslatorOptions } from '../src/app.ts';
import { RESTORED_SERIAL_TABLES } from '../src/backups/restore.ts';
import { serveOrigin, startSiteNginx } from './seo-site.ts';
import { TRANSLATOR_VERSION, type TranslatorConfig } from '../src/config.ts';

export type ConfigOverrides = Omit<Partial<TranslatorConfig>, 'ai' | 'backup' | 'pageKey'> & {
  ai?: Partial<TranslatorConfig['ai']>;
  backup?: Partial<TranslatorConfig['backup']>;
  pageKey?: Partial<TranslatorConfig['pageKey']>;
};

export function testConfig(database: TestDatabase, overrides: ConfigOverrides = {}): TranslatorConfig {
  const { ai, backup, pageKey, ...rest } = overrides;
  return {
    host: '127.0.0.1',
    port: 0,
    production: false,
    dataDir: database.dataDir,
    trustProxy: [],
    rateLimit: { failures: 10_000, windowSeconds: 60, blockSeconds: 60 },
    logLevel: 'silent',
    migrateOnStart: true,
    databaseUrl: database.url,
    databaseSchema: database.schema,
    secretKey: 'test-secret-key',
    version: TRANSLATOR_VERSION,
    bodyLimit: 5 * 1024 * 1024,
    cacheTtlSeconds: 5,
    staticDir: undefined,
    accounts: { publicUrl: undefined, oidc: undefined, inviteDays: 7 },
    seo: {
      allowlist: ['127.0.0.1'],
      originCacheSeconds: 300,
      cachedPages: 100,
      maxPageBytes: 5 * 2 ** 20,
      originTimeoutMs: 5000,
    },
    ...rest,
    ai: {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'test-model',
      batchSize: 10,
      parallelCalls: 2,
      jobsPerProject: 1,
      jobsPerProcess: 16,
      maxAttempts: 4,
      backoffMs: 10,
      requestTimeoutMs: 5000,
      leaseMs: 30_000,
      ...ai,
    },
    backup: {
      dir: join(database.dataDir, 'backups'),
      intervalHours: 0,
      keep: 3,
      // No wait between manual backups unless a test asks for it (backups.test.ts makes several).
      manualIntervalSeconds: 0,
      manualKeep: 50,
      uploadMaxBytes: 256 * 2 ** 20,
      ...backup,
    },
    pageKey: {
      writesPerMinute: 600,
      readsPerMinute: 6000,
      maxPendingPhrases: 10_000,
      maxUrls: 10_000,
      ...pageKey,
    },
  };
}

export interface Harness {
  translator: Translator;
  database: TestDatabase;
  config: TranslatorConfig;
  url: string;
  /** Client sending the default project's key. */
  client: TestClient;
  /** Client without a key. */
  anonymous: TestClient;
  key: string;
  /** The default project's publishable page key. */
  pageKey: string;
  /** Another client for a fresh project in the same deployment. */
  newProject(name?: string): Promise<{ client: TestClient; key: string; id: number }>;
  /** Closes the app and opens a new one on the same database (a restart). */
  restart(overrides?: ConfigOverrides): Promise<void>;
  stop(): Promise<void>;
}

export async function startHarness(
  overrides: ConfigOverrides = {},
  options: TranslatorOptions = {},
): Promise<Harness> {
  const database = await createTestDatabase();
  const harness = {} as Harness;
  const open = async (config: TranslatorConfig) => {
    const translator = await buildTranslator(config, options);
    const url = await translator.listen();
    const { api_key: key, page_key: pageKey } = translator.defaultProject.project;
    const client = new TestClient(url);
    client.defaultHeaders['x-api-key'] = key;
    Object.assign(harness, { translator, config, url, client, anonymous: new TestClient(url), key, pageKey });
  };
  await open(testConfig(database, overrides));
  harness.database = database;
  harness.newProject = async (name = 'Other') => {
    const { project, apiKey } = await harness.translator.services.projects.create(name);
    const client = new TestClient(harness.url);
    client.defaultHeaders['x-api-key'] = apiKey;
    return { client, key: apiKey, id: project.id };
  };
  harness.restart = async (more = {}) => {
    await harness.translator.close();
    await open(testConfig(database, { ...overrides, ...more }));
  };
  harness.stop = async () => {
    await harness.translator.close();
    await database.drop();
  };
  return harness;
}

let memberSerial = 0;

/**
 * A dashboard account holding `role` in a project: invited with the project's key (`owner`, a client
 * sending it) and accepted with a password. Its client sends the session cookie, the CSRF token and the
 * project's id, as the dashboard does.
 */
export async function signedInMember(
  harness: Harness,
  role: 'owner' | 'manager' | 'reviewer' | 'translator' | 'viewer',
  languages: string[] = [],
  project: { client: TestClient; id: number } = {
    client: harness.client,
    id: harness.translator.defaultProject.project.id,
  },
  email?: string,
) {
  const serial = ++memberSerial;
  email ??= `${role}${serial}@example.test`;
  const invite = await project.client.post<{ path: string }>('/api/members/invites', {
    email,
    role,
    languages,
  });
  if (invite.status !== 201) throw new Error(`invite failed: ${invite.status} ${invite.text}`);
  const client = new TestClient(harness.url);
  const token = invite.body.path.split('/').at(-1)!;
  const accepted = await client.post<{ csrfToken: string; account: { id: number } }>(
    `/api/invites/${token}/accept`,
    { name: `${role} ${serial}`, password: 'correct horse battery' },
  );
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${accepted.text}`);
  client.defaultHeaders['x-csrf-token'] = accepted.body.csrfToken;
  client.defaultHeaders['x-project-id'] = String(project.id);
  return { client, email, accountId: accepted.body.account.id, password: 'correct horse battery' };
}

/** Registers phrases on a page and approves them; their ids by key. */
export async function registerApproved(client: TestClient, keys: string[]): Promise<Record<string, number>> {
  await client.post('/api/textnodes', { keys: keys.map((key) => ({ key })), url: 'https://shop.test/' });
  const rows = (await client.get('/api/translations/all?limit=100')).body.rows as {
    id: number;
    key: string;
  }[];
  await client.patch('/api/textnodes/status', { ids: rows.map((row) => row.id), status: 'approved' });
  return Object.fromEntries(rows.map((row) => [row.key, row.id]));
}

export { get as plainGet, serveOrigin, startSiteNginx } from './seo-site.ts';
export { HOSTILE_STRINGS, HOSTILE_TRANSLATIONS, searchPage, storedPage } from './hostile-pages.ts';

/**
 * A site in SEO mode for the harness's default project: its origin on loopback (`routes`), the site's
 * nginx in front, the settings (`languages`, the origins, `settings`), and `translations` approved in the
 * first language.
 */
export async function seoSite(
  harness: Harness,
  options: {
    routes: Parameters<typeof serveOrigin>[0];
    languages: string[];
    translations: Record<string, string>;
    settings?: Record<string, unknown>;
  },
) {
  const origin = await serveOrigin(options.routes);
  const projectId = harness.translator.defaultProject.project.id;
  const site = await startSiteNginx({
    origin: origin.url,
    translator: harness.url,
    projectId,
    languages: options.languages,
  });
  const saved = await harness.client.patch('/api/project/settings', {
    settings: {
      languages: options.languages,
      seoOrigin: origin.url,
      seoPublicUrl: site.url,
      ...options.settings,
    },
  });
  if (saved.status !== 200) throw new Error(`settings: ${saved.status} ${saved.text}`);
  await registerApproved(harness.client, Object.keys(options.translations));
  await harness.client.post('/api/translations', {
    lang: options.languages[0],
    translations: Object.entries(options.translations).map(([key, value]) => ({ key, context: '', value })),
  });
  return {
    origin,
    site,
    projectId,
    async stop() {
      site.stop();
      await origin.close();
    },
  };
}

/** A 1×1 PNG, stored as a screenshot capture would store one (tests run no browser for it). */
export const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Tables whose rows get their id from a counter (SQLite's sqlite_sequence, PostgreSQL's sequences). */
const SERIAL_TABLES = [...RESTORED_SERIAL_TABLES, 'accounts', 'project_invites'];

/**
 * Makes every id counter go on from `base` (above every id so far: the caller's choice), so the rows made
 * next have ids no other rows share, which a test can look for in any answer.
 */
export async function startIdsAbove(harness: Harness, base: number): Promise<void> {
  const { db, dialect } = harness.translator.ctx;
  for (const table of SERIAL_TABLES) {
    if (dialect === 'postgres') {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), ${base})`.execute(db);
    } else {
      await sql`delete from sqlite_sequence where name = ${table}`.execute(db);
      await sql`insert into sqlite_sequence (name, seq) values (${table}, ${base})`.execute(db);
    }
  }
}
