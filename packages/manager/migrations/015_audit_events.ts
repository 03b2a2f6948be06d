import type { Kysely, Migration } from 'kysely';
import { withId, type DialectName } from '@app/server-kit';

/**
 * `audit_events`: who did what, when, from where, to what, and how it ended (see src/audit/). The
 * actor is kept as a snapshot (uidNumber and the name it had, or the API key's id, or neither for the
 * system and anonymous callers) with no foreign key: an entry outlives its user, key and target.
 * `request_id` ties an entry written inside a change's transaction to the request that answers later
 * (its final HTTP status). Indexes serve the audit log's filters, each newest first by id.
 */
export const auditEvents = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('audit_events'), dialect)
      .addColumn('occurred_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('request_id', 'varchar(36)')
      .addColumn('actor_uid_number', 'integer')
      .addColumn('actor_uid', 'varchar(64)')
      .addColumn('actor_api_key_id', 'varchar(36)')
      .addColumn('source_address', 'varchar(64)')
      .addColumn('action', 'varchar(64)', (c) => c.notNull())
      .addColumn('target_type', 'varchar(64)')
      .addColumn('target_id', 'varchar(64)')
      .addColumn('site_id', 'integer')
      .addColumn('container_id', 'integer')
      .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
      .addColumn('http_status', 'integer')
      .addColumn('error_code', 'varchar(64)')
      .addColumn('details', 'text')
      .execute();
    for (const [name, column] of [
      ['audit_events_occurred', 'occurred_at'],
      ['audit_events_actor', 'actor_uid_number'],
      ['audit_events_site', 'site_id'],
      ['audit_events_container', 'container_id'],
      ['audit_events_action', 'action'],
    ] as const) {
      await db.schema.createIndex(name).on('audit_events').columns([column, 'id']).execute();
    }
  },
});
