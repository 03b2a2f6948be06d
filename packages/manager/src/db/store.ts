import { openMigrated, type Database, type DbTarget } from '@app/server-kit';
// The one module of src that reaches the migrations (eslint.config.js keeps it that way).
import { managerMigrations } from '../../migrations/index.ts';
import type { ManagerConfig } from '../config.ts';
import type { ManagerDB } from './schema.ts';

/** The manager's database as `manager db …` sees it (the configured one, unmigrated). */
export function managerDbTarget(config: ManagerConfig, schema?: string): DbTarget {
  return {
    command: 'manager',
    options: {
      url: config.databaseUrl,
      dataDir: config.dataDir,
      fileName: 'manager.db',
      variable: 'MANAGER_DATABASE_URL',
      ...(schema ? { schema } : {}),
    },
    set: managerMigrations,
    name: 'manager',
  };
}

/** Opens the manager's database for serving: migrated first, or checked with MIGRATE_ON_START=false. */
export function openManagerDatabase(config: ManagerConfig, schema?: string): Promise<Database<ManagerDB>> {
  const target = managerDbTarget(config, schema);
  return openMigrated<ManagerDB>(target.options, target.set, target.name, {
    migrateOnStart: config.migrateOnStart,
    command: 'manager db migrate',
  });
}
