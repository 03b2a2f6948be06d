import { sql, type Kysely, type Migration } from 'kysely';
import { withId, type DialectName } from '@app/server-kit';

/**
 * Who owns a volume's folder, and what is left of a deleted container's volumes.
 * - `nodes.volume_id_shift`: what the node adds to a container's uid/gid to get the host's (NULL: the
 *   node type's default, 100000 for unprivileged Proxmox containers, 0 for engines).
 * - `volumes.host_uid`/`host_gid`: the owner the site agent gives the folder (NULL: left as made).
 * - `kept_volumes`: the folders of deleted containers, kept until an administrator has them removed
 *   (`status` removing: the site agent deletes the folder at its next check-in). It is part of the
 *   site snapshot, so on PostgreSQL it gets the `config_changed` trigger of migration 006.
 */
export const volumeOwners = (dialect: DialectName): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('nodes').addColumn('volume_id_shift', 'integer').execute();
    await db.schema.alterTable('volumes').addColumn('host_uid', 'integer').execute();
    await db.schema.alterTable('volumes').addColumn('host_gid', 'integer').execute();
    await withId(db.schema.createTable('kept_volumes'), dialect)
      .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addColumn('hostname', 'varchar(255)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('host_path', 'varchar(1024)', (c) => c.notNull())
      .addColumn('mount_path', 'varchar(1024)', (c) => c.notNull())
      .addColumn('kept_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('kept'))
      .addColumn('status_message', 'text')
      .execute();
    await db.schema.createIndex('kept_volumes_site').on('kept_volumes').column('site_id').execute();
    if (dialect === 'postgres') {
      await sql`
        create trigger config_changed after insert or update or delete or truncate on kept_volumes
        for each statement execute function config_changed()`.execute(db);
    }
  },
});
