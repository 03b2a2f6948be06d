import type { Kysely, Migration } from 'kysely';

/**
 * `nodes.tls_fingerprint`: the SHA-256 fingerprint (`AA:BB:…`) a node's certificate must have; when
 * set, the connection is accepted iff the peer's certificate matches, whatever its CA. NULL: the
 * certificate is checked against the system's CAs unless tls_verify is 0 (NULL tls_verify now means
 * verified). Plain `add column` of a nullable column: the same on SQLite and PostgreSQL.
 */
export const nodeTlsFingerprint: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('nodes').addColumn('tls_fingerprint', 'text').execute();
  },
};
