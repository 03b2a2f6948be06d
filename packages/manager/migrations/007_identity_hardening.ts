import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '@app/server-kit';

/** Where a username was stored as a reference, and the uidNumber column that replaces it. */
const REFERENCES = [
  { table: 'containers', from: 'owner', to: 'owner_uid_number', required: true },
  { table: 'jobs', from: 'created_by', to: 'created_by_uid_number', required: true },
  { table: 'notifications', from: 'owner', to: 'owner_uid_number', required: false },
  { table: 'notifications', from: 'acknowledged_by', to: 'acknowledged_by_uid_number', required: false },
  { table: 'resource_requests', from: 'username', to: 'uid_number', required: true },
  { table: 'resource_requests', from: 'reviewed_by', to: 'reviewed_by_uid_number', required: false },
] as const;

/** Resource requests approved automatically name `system` as reviewer: uidNumber 0, which no user has. */
const SYSTEM_REVIEWER = 'system';
const FIRST_UID_NUMBER = 2000;

/**
 * Manager identity.
 *
 * Identity is the immutable uidNumber; usernames are labels. Every reference that held a
 * username — container owners and collaborators, job creators, notification owners and
 * acknowledgers, resource requesters and reviewers — now holds the uidNumber, and the username is
 * joined at read. uidNumbers come from a persisted high-water mark (`id_counters`), never `max + 1`,
 * so a deleted user's number is never handed out again; `deleted_users` keeps the name each deleted
 * user had, for the references that outlive them.
 *
 * Existing rows are converted in place: a referenced name with no user (deleted before this
 * migration) becomes a deleted user of its own with a fresh number, so a newcomer who registers that
 * name inherits nothing; collaborator rows naming no user are dropped (they granted nothing anyone
 * should get).
 *
 * `quota_counters` holds the per-address and per-account quotas of registration and password-reset
 * requests, in the database so that every manager process counts the same.
 */
export const identityHardening = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('quota_counters')
      .addColumn('key_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('quota_counters_window')
      .on('quota_counters')
      .column('window_start')
      .execute();

    await db.schema
      .createTable('id_counters')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('last_value', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('deleted_users')
      .addColumn('uid_number', 'integer', (c) => c.primaryKey())
      .addColumn('uid', 'varchar(64)', (c) => c.notNull())
      .addColumn('deleted_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('deleted_users_uid').on('deleted_users').column('uid').execute();

    const highest = await db
      .selectFrom('users')
      .select((eb) => eb.fn.max('uid_number').as('max'))
      .executeTakeFirst();
    let last = Math.max(Number(highest?.max ?? 0), FIRST_UID_NUMBER - 1);
    const now = new Date().toISOString();
    for (const name of await formerNames(db)) {
      last += 1;
      await db.insertInto('deleted_users').values({ uid_number: last, uid: name, deleted_at: now }).execute();
    }
    await db.insertInto('id_counters').values({ name: 'uid_number', last_value: last }).execute();

    await db.schema.dropIndex('containers_owner').execute();
    await db.schema.dropIndex('notifications_owner').execute();
    await db.schema.dropIndex('resource_requests_target').execute();
    for (const { table, from, to, required } of REFERENCES) {
      await db.schema.alterTable(table).addColumn(to, 'integer').execute();
      const name = sql.ref(`${table}.${from}`);
      const lookup = sql`coalesce(
        (select u.uid_number from users u where u.uid = ${name}),
        (select d.uid_number from deleted_users d where d.uid = ${name}))`;
      const value =
        from === 'reviewed_by'
          ? sql`case when ${name} = ${SYSTEM_REVIEWER} then 0 else ${lookup} end`
          : lookup;
      await sql`update ${sql.table(table)} set ${sql.ref(to)} = ${value}`.execute(db);
      await db.schema.alterTable(table).dropColumn(from).execute();
      // SQLite cannot add NOT NULL to an existing column; the code always writes one there.
      if (required && dialect === 'postgres') {
        await db.schema
          .alterTable(table)
          .alterColumn(to, (c) => c.setNotNull())
          .execute();
      }
    }
    await db.schema.createIndex('containers_owner').on('containers').column('owner_uid_number').execute();
    await db.schema
      .createIndex('notifications_owner')
      .on('notifications')
      .columns(['owner_uid_number', 'acknowledged_at', 'id'])
      .execute();
    await db.schema
      .createIndex('resource_requests_target')
      .on('resource_requests')
      .columns(['site_id', 'hostname', 'uid_number', 'status'])
      .execute();

    await rebuildCollaborators(db);
  },
});

/** Usernames referenced anywhere that no user has (any more). */
async function formerNames(db: Kysely<any>): Promise<string[]> {
  const names = new Set<string>();
  for (const { table, from } of REFERENCES) {
    const rows = await db
      .selectFrom(table)
      .select(sql<string>`${sql.ref(from)}`.as('name'))
      .distinct()
      .where(from, 'is not', null)
      .where(from, 'not in', db.selectFrom('users').select('uid'))
      .execute();
    for (const { name } of rows) if (!(from === 'reviewed_by' && name === SYSTEM_REVIEWER)) names.add(name);
  }
  return [...names].sort();
}

/**
 * Collaborators keyed by uidNumber, removed with their user. The table is made anew (SQLite cannot
 * drop a primary-key column), under constraint names of its own (PostgreSQL names them per schema).
 */
async function rebuildCollaborators(db: Kysely<any>) {
  await db.schema
    .createTable('container_collaborators_by_uid')
    .addColumn('container_id', 'integer', (c) => c.notNull().references('containers.id').onDelete('cascade'))
    .addColumn('uid_number', 'integer', (c) => c.notNull().references('users.uid_number').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('container_collaborators_uid_pk', ['container_id', 'uid_number'])
    .execute();
  await sql`
    insert into container_collaborators_by_uid (container_id, uid_number, created_at)
    select c.container_id, u.uid_number, c.created_at
    from container_collaborators c inner join users u on u.uid = c.username`.execute(db);
  await db.schema.dropTable('container_collaborators').execute();
  await db.schema.alterTable('container_collaborators_by_uid').renameTo('container_collaborators').execute();
  await db.schema
    .createIndex('container_collaborators_uid')
    .on('container_collaborators')
    .column('uid_number')
    .execute();
}
