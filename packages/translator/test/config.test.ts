import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, envReader } from '@app/server-kit';
import { readTranslatorConfig } from '../src/config.ts';

const dataDir = () => mkdtempSync(join(tmpdir(), 'translator-config-'));

describe('readTranslatorConfig', () => {
  it('has working defaults', () => {
    const dir = dataDir();
    const config = readTranslatorConfig(envReader({ DATA_DIR: dir }));
    expect(config).toMatchObject({
      port: 3100,
      host: '0.0.0.0',
      databaseUrl: undefined,
      production: false,
      ai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
      backup: {
        dir: resolve(dir, 'backups'),
        intervalHours: 24,
        keep: 7,
        manualIntervalSeconds: 60,
        manualKeep: 10,
        uploadMaxBytes: 256 * 2 ** 20,
      },
      pageKey: { writesPerMinute: 60, readsPerMinute: 600, maxPendingPhrases: 10_000, maxUrls: 10_000 },
    });
    expect(config.secretKey.length).toBeGreaterThan(20);
  });

  it('reads the translator variables', () => {
    const config = readTranslatorConfig(
      envReader({
        DATA_DIR: dataDir(),
        TRANSLATOR_PORT: '4000',
        TRANSLATOR_DATABASE_URL: 'postgres://db/translator',
        TRANSLATOR_AI_BASE_URL: 'http://127.0.0.1:8080/v1/',
        TRANSLATOR_AI_MODEL: 'local-model',
        TRANSLATOR_BACKUP_DIR: '/var/backups/translator',
        TRANSLATOR_BACKUP_KEEP: '14',
        TRANSLATOR_BACKUP_MANUAL_INTERVAL_S: '300',
        TRANSLATOR_BACKUP_MANUAL_KEEP: '3',
        TRANSLATOR_PAGE_WRITES_PER_MIN: '10',
        TRANSLATOR_PAGE_READS_PER_MIN: '100',
        TRANSLATOR_PAGE_MAX_PENDING: '500',
        TRANSLATOR_PAGE_MAX_URLS: '50',
        NODE_ENV: 'production',
        SECRET_KEY: 'from-env',
      }),
    );
    expect(config).toMatchObject({
      port: 4000,
      databaseUrl: 'postgres://db/translator',
      production: true,
      secretKey: 'from-env',
      ai: { baseUrl: 'http://127.0.0.1:8080/v1', model: 'local-model' },
      backup: { dir: '/var/backups/translator', keep: 14, manualIntervalSeconds: 300, manualKeep: 3 },
      pageKey: { writesPerMinute: 10, readsPerMinute: 100, maxPendingPhrases: 500, maxUrls: 50 },
    });
  });

  it('stops on values it cannot use, naming the variable', () => {
    expect(() => readTranslatorConfig(envReader({ DATA_DIR: dataDir(), TRANSLATOR_PORT: 'abc' }))).toThrow(
      ConfigError,
    );
    expect(() =>
      readTranslatorConfig(envReader({ DATA_DIR: dataDir(), TRANSLATOR_AI_BASE_URL: 'ftp://x' })),
    ).toThrow(/TRANSLATOR_AI_BASE_URL/);
  });
});
