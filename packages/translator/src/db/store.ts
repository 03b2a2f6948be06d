import { openMigrated, type Database, type DbTarget } from '@app/server-kit';
// The one module of src that reaches the migrations (eslint.config.js keeps it that way).
import { translatorMigrations } from '../../migrations/index.ts';
import type { TranslatorConfig } from '../config.ts';
import type { TranslatorDB } from './schema.ts';

/** Backup files carry the translator's schema too: they are migrated with the same set. */
export { translatorMigrations };

/** The translator's database as `translator db …` sees it (the configured one, unmigrated). */
export function translatorDbTarget(config: TranslatorConfig): DbTarget {
  return {
    command: 'translator',
    options: {
      url: config.databaseUrl,
      dataDir: config.dataDir,
      fileName: 'translator.db',
      variable: 'TRANSLATOR_DATABASE_URL',
      ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    },
    set: translatorMigrations,
    name: 'translator',
  };
}

/** Opens the translator's database: migrated first, or checked with MIGRATE_ON_START=false. */
export function openStore(config: TranslatorConfig): Promise<Database<TranslatorDB>> {
  const target = translatorDbTarget(config);
  return openMigrated<TranslatorDB>(target.options, target.set, target.name, {
    migrateOnStart: config.migrateOnStart,
    command: 'translator db migrate',
  });
}
