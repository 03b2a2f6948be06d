import type { Kysely, Migration } from 'kysely';

/**
 * `http_services.redirect_https` and `.hsts` (0/1, off by default): per HTTP service, whether the
 * site's nginx answers plain HTTP with a redirect to HTTPS and sends Strict-Transport-Security, both
 * only once the host has a certificate. Kept beside the spec's columns; the spec's fields are unchanged.
 */
export const httpsToggles: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of ['redirect_https', 'hsts']) {
      await db.schema
        .alterTable('http_services')
        .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    }
  },
};
