import type { Kysely, Migration } from 'kysely';
import { withId, type DialectName } from '@app/server-kit';

/** Site agents and what they report, node-side notifications, and container volumes. */
export const siteAgents = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('agents'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('hostname', 'varchar(255)', (c) => c.notNull())
      .addColumn('ipv4_address', 'varchar(45)')
      .addColumn('services', 'text')
      .addColumn('last_checkin_at', 'varchar(32)')
      .addUniqueConstraint('agents_site_hostname', ['site_id', 'hostname'])
      .execute();

    await withId(db.schema.createTable('notifications'), dialect)
      .addColumn('source', 'varchar(255)', (c) => c.notNull())
      .addColumn('severity', 'varchar(16)', (c) => c.notNull())
      .addColumn('node', 'varchar(255)')
      // The API's `ctid`; that name is a PostgreSQL system column.
      .addColumn('node_ctid', 'varchar(128)')
      .addColumn('owner', 'varchar(64)')
      .addColumn('action', 'varchar(255)')
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('evidence', 'text')
      .addColumn('event_at', 'varchar(32)')
      .addColumn('acknowledged_at', 'varchar(32)')
      .addColumn('acknowledged_by', 'varchar(64)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('notifications_owner')
      .on('notifications')
      .columns(['owner', 'acknowledged_at', 'id'])
      .execute();

    await withId(db.schema.createTable('volumes'), dialect)
      .addColumn('container_id', 'integer', (c) =>
        c.notNull().references('containers.id').onDelete('cascade'),
      )
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('host_path', 'varchar(1024)')
      .addColumn('mount_path', 'varchar(1024)', (c) => c.notNull())
      .addColumn('mode', 'varchar(2)', (c) => c.notNull().defaultTo('rw'))
      .addColumn('scope', 'varchar(16)', (c) => c.notNull().defaultTo('container'))
      .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('status_message', 'text')
      .addColumn('applied_at', 'varchar(32)')
      .addUniqueConstraint('volumes_container_name', ['container_id', 'name'])
      .addUniqueConstraint('volumes_container_mount', ['container_id', 'mount_path'])
      .execute();
  },
});
