import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '@app/server-kit';

/**
 * Every project has had a page key since they were introduced; PostgreSQL now refuses a row without one.
 * SQLite cannot add NOT NULL to an existing column: there the code keeps it.
 */
export const pageKeyRequired = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    await db.schema
      .alterTable('projects')
      .alterColumn('page_key', (column) => column.setNotNull())
      .execute();
  },
});
