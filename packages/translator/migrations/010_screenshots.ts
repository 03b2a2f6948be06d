import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '@app/server-kit';

/**
 * Screenshots as context: one image per phrase, showing where a page the project has seen shows it (the
 * phrase's element outlined). `png` is null when the capture failed (the page did not load, the text
 * was not found, the address was refused): `error` says why, and the phrase is tried again later.
 * The rows go with their phrase and their project.
 */
export const screenshots = (dialect: DialectName): Migration => ({
  // Migrations are written against the schema as it was, not the current row types.

  async up(db: Kysely<any>) {
    await db.schema
      .createTable('phrase_screenshots')
      .addColumn('phrase_id', 'integer', (c) => c.primaryKey().references('phrases.id').onDelete('cascade'))
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('url', 'varchar(2048)', (c) => c.notNull())
      .addColumn('png', dialect === 'postgres' ? 'bytea' : 'blob')
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('error', 'text')
      .addColumn('captured_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('phrase_screenshots_project')
      .on('phrase_screenshots')
      .column('project_id')
      .execute();
  },
});
