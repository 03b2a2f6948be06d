import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '@app/server-kit';

/** The configuration tables as of this migration (src/db/tables.ts lists today's; later ones get their own migration). */
const TRIGGERED_TABLES = [
  'sites',
  'nodes',
  'containers',
  'services',
  'http_services',
  'transport_services',
  'dns_services',
  'external_domains',
  'volumes',
] as const;

/**
 * PostgreSQL: every statement that writes a configuration table sends `NOTIFY config_changes, <schema>`.
 * A notification is delivered when its transaction commits (and not at all when it rolls back), so
 * every manager process — the writer's too — rebuilds its cached snapshots from committed rows, however
 * long the transaction ran. SQLite (one process) needs none.
 */
export const configChangeTriggers = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    await sql`
      create function config_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('config_changes', tg_table_schema);
        return null;
      end $$`.execute(db);
    for (const table of TRIGGERED_TABLES) {
      await sql`
        create trigger config_changed after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function config_changed()`.execute(db);
    }
  },
});
