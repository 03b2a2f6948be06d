import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '@app/server-kit';

/**
 * What a cached caller is made of, per table: the writes that change who a credential stands for (a
 * key or agent token deleted or moved, a user renamed, suspended or deleted, a group's admin flag, a
 * membership). Bookkeeping columns (`last_used_at`, `updated_at`) are left out: a busy key writes its
 * last use once a minute, and that must not empty every process's cache.
 */
const TRIGGERS = {
  users: 'update of uid, status or delete or truncate',
  groups: 'update of is_admin or delete or truncate',
  user_groups: 'insert or update or delete or truncate',
  api_keys: 'update of uid_number, key_hash or delete or truncate',
  agent_tokens: 'update of site_id, token_hash or delete or truncate',
} as const;

/**
 * PostgreSQL: each write above sends `NOTIFY principal_changes, <schema>` when its transaction commits,
 * so every manager process forgets its cached API-key principals and agent tokens at once (see
 * services.ts), not only the one that made the change. SQLite (one process) needs none.
 */
export const principalChangeTriggers = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    await sql`
      create function principal_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('principal_changes', tg_table_schema);
        return null;
      end $$`.execute(db);
    for (const [table, events] of Object.entries(TRIGGERS)) {
      await sql`
        create trigger principal_changed after ${sql.raw(events)} on ${sql.table(table)}
        for each statement execute function principal_changed()`.execute(db);
    }
  },
});
