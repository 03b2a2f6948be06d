import type { Kysely, Migration } from 'kysely';
import { withId, type DialectName } from '@app/server-kit';

export const initial = (dialect: DialectName): Migration => ({
  // Migrations are written against the schema as it was, not the current row types.

  async up(db: Kysely<any>) {
    await withId(db.schema.createTable('projects'), dialect)
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('api_key_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('api_key_sealed', 'text', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('provider_key_sealed', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('phrases'), dialect)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('context', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('var_slots', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('slot_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('first_seen_day', 'varchar(10)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('phrases_project_key_uq', ['project_id', 'key_hash'])
      .execute();
    await db.schema
      .createIndex('phrases_project_status')
      .on('phrases')
      .columns(['project_id', 'status'])
      .execute();
    await db.schema
      .createIndex('phrases_project_day')
      .on('phrases')
      .columns(['project_id', 'first_seen_day'])
      .execute();

    await db.schema
      .createTable('phrase_urls')
      .addColumn('phrase_id', 'integer', (c) => c.notNull().references('phrases.id').onDelete('cascade'))
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('url', 'varchar(2048)', (c) => c.notNull())
      .addColumn('first_seen_day', 'varchar(10)', (c) => c.notNull())
      .addPrimaryKeyConstraint('phrase_urls_pk', ['phrase_id', 'url'])
      .execute();
    await db.schema
      .createIndex('phrase_urls_project_url')
      .on('phrase_urls')
      .columns(['project_id', 'url'])
      .execute();

    await withId(db.schema.createTable('translations'), dialect)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('phrase_id', 'integer', (c) => c.notNull().references('phrases.id').onDelete('cascade'))
      .addColumn('lang', 'varchar(35)', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('translations_phrase_lang_uq', ['phrase_id', 'lang'])
      .execute();
    await db.schema
      .createIndex('translations_project_lang')
      .on('translations')
      .columns(['project_id', 'lang'])
      .execute();

    await db.schema
      .createTable('prompts')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('prompts_project').on('prompts').column('project_id').execute();

    await db.schema
      .createTable('ai_jobs')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('lang', 'varchar(35)', (c) => c.notNull())
      .addColumn('prompt_id', 'varchar(36)')
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('include_screenshots', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('lease_owner', 'varchar(64)')
      .addColumn('lease_until', 'bigint')
      .addColumn('run_ms', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('started_at', 'varchar(32)')
      .addColumn('finished_at', 'varchar(32)')
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('ai_jobs_project_status')
      .on('ai_jobs')
      .columns(['project_id', 'status'])
      .execute();
    await db.schema.createIndex('ai_jobs_status').on('ai_jobs').column('status').execute();

    await db.schema
      .createTable('ai_job_items')
      .addColumn('job_id', 'varchar(36)', (c) => c.notNull().references('ai_jobs.id').onDelete('cascade'))
      .addColumn('phrase_id', 'integer', (c) => c.notNull())
      .addColumn('state', 'varchar(8)', (c) => c.notNull().defaultTo('pending'))
      .addPrimaryKeyConstraint('ai_job_items_pk', ['job_id', 'phrase_id'])
      .execute();
    await db.schema
      .createIndex('ai_job_items_job_state')
      .on('ai_job_items')
      .columns(['job_id', 'state'])
      .execute();
  },
});
