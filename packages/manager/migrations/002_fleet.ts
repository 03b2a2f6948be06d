import type { Kysely, Migration } from 'kysely';
import { withId, type DialectName } from '@app/server-kit';

/** Sites, nodes, the containers table, jobs with their output rows, and dummy-node state. */
export const fleet = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('sites'), dialect)
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('internal_domain', 'varchar(255)', (c) => c.notNull())
      .addColumn('dhcp_range', 'varchar(64)', (c) => c.notNull())
      .addColumn('subnet_mask', 'varchar(15)', (c) => c.notNull())
      .addColumn('gateway', 'varchar(15)', (c) => c.notNull())
      .addColumn('dns_forwarders', 'varchar(255)', (c) => c.notNull())
      .addColumn('external_ip', 'varchar(45)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('nodes'), dialect)
      .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('node_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('restrict'))
      .addColumn('ipv4_address', 'varchar(45)')
      .addColumn('api_url', 'varchar(1024)')
      .addColumn('token_id', 'varchar(255)')
      .addColumn('secret_sealed', 'text')
      .addColumn('tls_verify', 'integer')
      .addColumn('image_storage', 'varchar(255)', (c) => c.notNull())
      .addColumn('volume_storage', 'varchar(255)', (c) => c.notNull())
      .addColumn('network_bridge', 'varchar(255)', (c) => c.notNull())
      .addColumn('nvidia_available', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('nodes_site').on('nodes').column('site_id').execute();

    await withId(db.schema.createTable('jobs'), dialect)
      .addColumn('command', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('lease_owner', 'varchar(128)')
      .addColumn('lease_expires_at', 'bigint')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('started_at', 'varchar(32)')
      .addColumn('finished_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('jobs_status').on('jobs').columns(['status', 'id']).execute();

    await withId(db.schema.createTable('job_statuses'), dialect)
      .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('output', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('job_statuses_job').on('job_statuses').columns(['job_id', 'id']).execute();

    // The containers' own columns; a later migration adds services, collaborators and volumes beside it.
    await withId(db.schema.createTable('containers'), dialect)
      .addColumn('hostname', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('owner', 'varchar(64)', (c) => c.notNull())
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('restrict'))
      .addColumn('container_id', 'varchar(128)')
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('template', 'varchar(1024)', (c) => c.notNull())
      .addColumn('ipv4_address', 'varchar(45)', (c) => c.unique())
      .addColumn('mac_address', 'varchar(17)', (c) => c.unique())
      .addColumn('creation_job_id', 'integer', (c) => c.references('jobs.id').onDelete('set null'))
      .addColumn('entrypoint', 'text')
      .addColumn('environment_vars', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('nvidia_requested', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('containers_node_container', ['node_id', 'container_id'])
      .execute();
    await db.schema.createIndex('containers_owner').on('containers').column('owner').execute();

    // What a simulated (dummy) node "runs": the provider's state lives in the database.
    await db.schema
      .createTable('dummy_instances')
      .addColumn('node_id', 'integer', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
      .addColumn('vmid', 'integer', (c) => c.notNull())
      .addColumn('hostname', 'varchar(255)', (c) => c.notNull())
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('dummy_instances_pk', ['node_id', 'vmid'])
      .execute();
  },
});
