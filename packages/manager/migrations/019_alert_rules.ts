import type { Kysely, Migration } from 'kysely';
import { withId, type DialectName } from '@app/server-kit';

/**
 * Alert rules on the metrics (see src/alerts/). `alert_rules`: what to watch (a figure of
 * `metric_latest`, a comparison, a threshold held for `duration_s`), where (`scope_type`, and
 * `scope_id` for a site, a node or a container), and whom to tell (notifications always, e-mail,
 * a webhook whose secret is sealed). `alert_states`: per rule and subject, since when the condition
 * holds (`pending_since`) and since when the rule fires (`firing_since`); a row exists only while the
 * condition holds, so firing and resolving each happen once.
 */
export const alertRules = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('alert_rules'), dialect)
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('metric', 'varchar(32)', (c) => c.notNull())
      .addColumn('comparison', 'varchar(8)', (c) => c.notNull())
      .addColumn('threshold', 'double precision', (c) => c.notNull())
      .addColumn('duration_s', 'integer', (c) => c.notNull())
      .addColumn('scope_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('scope_id', 'integer')
      .addColumn('email', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('webhook_url', 'varchar(2048)')
      .addColumn('webhook_secret_sealed', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('alert_states')
      .addColumn('rule_id', 'integer', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
      .addColumn('subject_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('subject_id', 'integer', (c) => c.notNull())
      .addColumn('pending_since', 'bigint', (c) => c.notNull())
      .addColumn('firing_since', 'bigint')
      .addPrimaryKeyConstraint('alert_states_pk', ['rule_id', 'subject_type', 'subject_id'])
      .execute();
  },
});
