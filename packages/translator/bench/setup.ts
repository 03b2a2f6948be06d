import type { TestDatabase } from '@app/server-kit/testing';
import { TRANSLATOR_VERSION, type TranslatorConfig } from '../src/config.ts';

export function benchConfig(
  database: TestDatabase,
  ai: Partial<TranslatorConfig['ai']> = {},
): TranslatorConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    production: true,
    dataDir: database.dataDir,
    trustProxy: [],
    rateLimit: { failures: 1_000_000, windowSeconds: 60, blockSeconds: 1 },
    logLevel: 'silent',
    databaseUrl: database.url,
    databaseSchema: database.schema,
    secretKey: 'bench',
    version: TRANSLATOR_VERSION,
    bodyLimit: 5 * 1024 * 1024,
    cacheTtlSeconds: 5,
    staticDir: undefined,
    ai: {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'bench-model',
      batchSize: 25,
      parallelCalls: 4,
      jobsPerProject: 1,
      maxAttempts: 5,
      backoffMs: 100,
      requestTimeoutMs: 30_000,
      leaseMs: 30_000,
      ...ai,
    },
    backup: { dir: `${database.dataDir}/backups`, intervalHours: 0, keep: 7 },
  };
}

/** Loosely typed answers of our own API: the benches only read a few fields. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = any;

export async function api(
  url: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const res = await fetch(url + path, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A distinct lower-case word per number (bijective base 26), so keys differ in letters, not in digits. */
export const word = (i: number): string =>
  (i < 26 ? '' : word(Math.floor(i / 26) - 1)) + String.fromCharCode(97 + (i % 26));

/** Registers `count` phrases and approves them (through the API); returns their ids. */
export async function seedPhrases(url: string, key: string, count: number, lang: string) {
  await api(url, key, 'PATCH', '/api/project/settings', { settings: { languages: [lang] } });
  for (let start = 0; start < count; start += 1000) {
    const keys = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
      key: `Sentence ${word(start + i)} shown on the product page with 3 options`,
    }));
    await api(url, key, 'POST', '/api/textnodes', { keys, url: 'https://shop.example/' });
  }
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const list = await api(url, key, 'GET', `/api/translations/all?limit=500&page=${page}`);
    ids.push(...list.rows.map((row: { id: number }) => row.id));
    if (list.rows.length < 500) break;
  }
  await api(url, key, 'PATCH', '/api/textnodes/status', { ids, status: 'approved' });
  return ids;
}

/** Phrases as above, each with an approved translation in `lang`. */
export async function seedTranslations(url: string, key: string, count: number, lang: string) {
  const ids = await seedPhrases(url, key, count, lang);
  for (let start = 0; start < ids.length; start += 1000) {
    await api(url, key, 'POST', '/api/translations', {
      lang,
      translations: ids
        .slice(start, start + 1000)
        .map((id) => ({ id, value: `Phrase ${id} traduite avec {{number:0}} options` })),
    });
  }
  return ids;
}
