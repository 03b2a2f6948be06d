import type { Kysely, Migration } from 'kysely';
import { withId, type DialectName } from '@app/server-kit';

/**
 * Containers beyond the columns 002 gave them: collaborators, services (HTTP, transport, DNS SRV),
 * external domains (when no other migration made them), and resource requests.
 */
export const containers = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('external_domains').ifNotExists(), dialect)
      .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('acme_email', 'varchar(320)')
      .addColumn('acme_directory_url', 'varchar(1024)')
      .addColumn('dns_provider_api_email', 'varchar(320)')
      .addColumn('dns_provider_api_key_sealed', 'text')
      .addColumn('site_id', 'integer', (c) => c.references('sites.id').onDelete('set null'))
      .addColumn('auth_server', 'varchar(1024)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('container_collaborators')
      .addColumn('container_id', 'integer', (c) =>
        c.notNull().references('containers.id').onDelete('cascade'),
      )
      .addColumn('username', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('container_collaborators_pk', ['container_id', 'username'])
      .execute();
    await db.schema
      .createIndex('container_collaborators_user')
      .on('container_collaborators')
      .column('username')
      .execute();
    await db.schema.createIndex('containers_node').on('containers').column('node_id').execute();

    await withId(db.schema.createTable('services'), dialect)
      .addColumn('container_id', 'integer', (c) =>
        c.notNull().references('containers.id').onDelete('cascade'),
      )
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('internal_port', 'integer', (c) => c.notNull())
      .addColumn('last_accessed_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('services_container').on('services').column('container_id').execute();

    await withId(db.schema.createTable('http_services'), dialect)
      .addColumn('service_id', 'integer', (c) =>
        c.notNull().unique().references('services.id').onDelete('cascade'),
      )
      .addColumn('external_hostname', 'varchar(255)', (c) => c.notNull())
      .addColumn('external_domain_id', 'integer', (c) =>
        c.notNull().references('external_domains.id').onDelete('restrict'),
      )
      .addColumn('backend_protocol', 'varchar(8)', (c) => c.notNull().defaultTo('http'))
      .addColumn('auth_required', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('http_services_host_domain', ['external_hostname', 'external_domain_id'])
      .execute();

    await withId(db.schema.createTable('transport_services'), dialect)
      .addColumn('service_id', 'integer', (c) =>
        c.notNull().unique().references('services.id').onDelete('cascade'),
      )
      .addColumn('protocol', 'varchar(8)', (c) => c.notNull())
      .addColumn('external_port', 'integer', (c) => c.notNull())
      .addColumn('use_tls', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('transport_services_port', ['protocol', 'external_port'])
      .execute();

    await withId(db.schema.createTable('dns_services'), dialect)
      .addColumn('service_id', 'integer', (c) =>
        c.notNull().unique().references('services.id').onDelete('cascade'),
      )
      .addColumn('record_type', 'varchar(8)', (c) => c.notNull().defaultTo('SRV'))
      .addColumn('dns_name', 'varchar(255)', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('resource_requests'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('hostname', 'varchar(255)', (c) => c.notNull())
      .addColumn('username', 'varchar(64)', (c) => c.notNull())
      .addColumn('resource_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('value', 'integer', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('comment', 'text')
      .addColumn('admin_comment', 'text')
      .addColumn('reviewed_by', 'varchar(64)')
      .addColumn('reviewed_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('resource_requests_target')
      .on('resource_requests')
      .columns(['site_id', 'hostname', 'username', 'status'])
      .execute();
    await db.schema
      .createIndex('resource_requests_status')
      .on('resource_requests')
      .columns(['status', 'id'])
      .execute();
  },
});
