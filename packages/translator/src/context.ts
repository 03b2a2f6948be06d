import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DialectName, SecretBox } from '@app/server-kit';
import type { TranslatorDB } from './db/schema.ts';
import type { TranslatorConfig } from './config.ts';
import type { TranslatorMetrics } from './observability/metrics.ts';

/** What every domain service of the translator is built from. */
export interface TranslatorContext {
  db: Kysely<TranslatorDB>;
  dialect: DialectName;
  config: TranslatorConfig;
  secrets: SecretBox;
  log: FastifyBaseLogger;
  metrics: TranslatorMetrics;
}
