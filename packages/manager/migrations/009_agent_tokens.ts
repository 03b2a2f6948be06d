import type { Kysely, Migration } from 'kysely';

/**
 * Per-site agent tokens: what a site agent on another host authenticates with instead of an
 * administrator's API key. Stored as a display prefix plus the SHA-256 of the secret, like API keys;
 * they go with their site. The same on SQLite and PostgreSQL (uuid ids, ISO times).
 */
export const agentTokens: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('agent_tokens')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('token_prefix', 'varchar(16)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('description', 'varchar(255)')
      .addColumn('last_used_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('agent_tokens_site').on('agent_tokens').column('site_id').execute();
  },
};
