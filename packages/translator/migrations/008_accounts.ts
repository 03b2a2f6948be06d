import type { Kysely, Migration } from 'kysely';
import { withId, type DialectName } from '@app/server-kit';

/**
 * Dashboard accounts: people who sign in with a password or through the OpenID provider, their
 * browser sessions (keyed by the SHA-256 of the cookie), their role in each project (translators and
 * reviewers for a list of languages, JSON), and the invitations an owner sends (keyed by the SHA-256 of
 * the link's token). Accounts belong to the deployment; memberships and invitations to a project.
 */
export const accounts = (dialect: DialectName): Migration => ({
  // Migrations are written against the schema as it was, not the current row types.

  async up(db: Kysely<any>) {
    await withId(db.schema.createTable('accounts'), dialect)
      .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('password_hash', 'varchar(200)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('account_sessions')
      .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('csrf_token', 'varchar(64)', (c) => c.notNull())
      .addColumn('id_token', 'text')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('account_sessions_account')
      .on('account_sessions')
      .column('account_id')
      .execute();
    await db.schema
      .createTable('project_members')
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('role', 'varchar(16)', (c) => c.notNull())
      .addColumn('languages', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'account_id'])
      .execute();
    await db.schema
      .createIndex('project_members_account')
      .on('project_members')
      .column('account_id')
      .execute();
    await withId(db.schema.createTable('project_invites'), dialect)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('email', 'varchar(254)', (c) => c.notNull())
      .addColumn('role', 'varchar(16)', (c) => c.notNull())
      .addColumn('languages', 'text', (c) => c.notNull())
      .addColumn('invited_by', 'varchar(300)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('project_invites_email_uq')
      .unique()
      .on('project_invites')
      .columns(['project_id', 'email'])
      .execute();
  },
});
