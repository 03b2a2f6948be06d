import { join } from 'node:path';
import { createTestDatabase, TestClient, type TestDatabase } from '@app/server-kit/testing';
import { buildTranslator, type Translator, type TranslatorOptions } from '../src/app.ts';
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
