import type { Kysely, Migration } from 'kysely';

/**
 * `certificates`: the state of each ACME certificate as its site's agent last reported it (one row
 * per site and host name; they go with their site). `last_error` is null while the certificate is
 * good; the manager tells administrators when it turns non-null, once per failure.
 */
export const certificates: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('certificates')
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('hostname', 'varchar(253)', (c) => c.notNull())
      .addColumn('not_after', 'varchar(32)')
      .addColumn('last_error', 'text')
      .addColumn('next_attempt', 'varchar(32)')
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('certificates_pk', ['site_id', 'hostname'])
      .execute();
  },
};
