import type { Kysely, Migration } from 'kysely';

export const identity: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('users')
      .addColumn('uid_number', 'integer', (c) => c.primaryKey())
      .addColumn('uid', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('given_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('sn', 'varchar(255)', (c) => c.notNull())
      .addColumn('cn', 'varchar(512)', (c) => c.notNull())
      .addColumn('mail', 'varchar(320)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text')
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('groups')
      .addColumn('gid_number', 'integer', (c) => c.primaryKey())
      .addColumn('cn', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('user_groups')
      .addColumn('uid_number', 'integer', (c) =>
        c.notNull().references('users.uid_number').onDelete('cascade'),
      )
      .addColumn('gid_number', 'integer', (c) =>
        c.notNull().references('groups.gid_number').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('user_groups_pk', ['uid_number', 'gid_number'])
      .execute();
    await db.schema.createIndex('user_groups_gid').on('user_groups').column('gid_number').execute();

    const now = new Date().toISOString();
    await db
      .insertInto('groups')
      .values([
        { gid_number: 2000, cn: 'ldapusers', is_admin: 0, created_at: now, updated_at: now },
        { gid_number: 2001, cn: 'sysadmins', is_admin: 1, created_at: now, updated_at: now },
      ])
      .execute();

    // Session ids and every token are stored as SHA-256 hashes: a database leak gives no live credential.
    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('uid_number', 'integer', (c) => c.references('users.uid_number').onDelete('cascade'))
      .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('uid_number').execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('uid_number', 'integer', (c) =>
        c.notNull().references('users.uid_number').onDelete('cascade'),
      )
      .addColumn('key_prefix', 'varchar(16)', (c) => c.notNull())
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('last_used_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('api_keys_user').on('api_keys').column('uid_number').execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('invite_tokens')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('email', 'varchar(320)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('password_reset_tokens')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('uid_number', 'integer', (c) =>
        c.notNull().references('users.uid_number').onDelete('cascade'),
      )
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
};
