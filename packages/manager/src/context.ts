import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DialectName, SecretBox } from '@app/server-kit';
import type { ManagerDB } from './db/schema.ts';
import type { ManagerConfig } from './config.ts';
import type { ConfigChanges } from './site-config/config-changes.ts';
import type { ManagerMetrics } from './observability/metrics.ts';

/** What every domain service of the manager is built from. */
export interface ManagerContext {
  db: Kysely<ManagerDB>;
  dialect: DialectName;
  /** Prepared-statement reads for hot paths (see Database.read). */
  read: Database<ManagerDB>['read'];
  config: ManagerConfig;
  secrets: SecretBox;
  log: FastifyBaseLogger;
  /** PostgreSQL schema in use (tests), for connections opened outside Kysely (LISTEN). */
  databaseSchema?: string | undefined;
  /** Notices writes to the site configuration (`db` reports them), for the snapshot cache. */
  configChanges: ConfigChanges;
  metrics: ManagerMetrics;
}
