import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { ManagerDB, NotificationsTable } from '../db/schema.ts';
import { usernameOf } from '../users/users-repository.ts';
import { parseEvidence } from './evidence.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/** A notification row with its owner and acknowledger as usernames. */
export type NotificationRow = Selectable<NotificationsTable> & {
  owner: string | null;
  acknowledged_by: string | null;
};

/** `notifications`: one owner's events and their acknowledgement. */
export class NotificationsRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  private select() {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .select([
        usernameOf('notifications.owner_uid_number').as('owner'),
        usernameOf('notifications.acknowledged_by_uid_number').as('acknowledged_by'),
      ]);
  }

  async insert(
    values: Insertable<NotificationsTable>,
    db: Kysely<ManagerDB> | Transaction<ManagerDB> = this.db,
  ): Promise<number> {
    const { id } = await db
      .insertInto('notifications')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async insertMany(
    rows: Insertable<NotificationsTable>[],
    db: Kysely<ManagerDB> | Transaction<ManagerDB> = this.db,
  ): Promise<void> {
    if (rows.length) await db.insertInto('notifications').values(rows).execute();
  }

  byId(id: number): Promise<NotificationRow> {
    return this.select().where('id', '=', id).executeTakeFirstOrThrow();
  }

  ownedById(owner: number, id: number): Promise<NotificationRow | undefined> {
    return this.select().where('id', '=', id).where('owner_uid_number', '=', owner).executeTakeFirst();
  }

  /** The owner's (uidNumber) notifications: unacknowledged first, then newest first. */
  listOwned(owner: number, limit: number): Promise<NotificationRow[]> {
    return this.select()
      .where('owner_uid_number', '=', owner)
      .orderBy((eb) => eb.case().when('acknowledged_at', 'is', null).then(0).else(1).end())
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Acknowledges the owner's unacknowledged notification `id`, or all of them; answers how many. */
  async acknowledge(owner: number, at: string, id?: number, db: Db = this.db): Promise<number> {
    let update = db
      .updateTable('notifications')
      .set({ acknowledged_at: at, acknowledged_by_uid_number: owner, updated_at: at })
      .where('owner_uid_number', '=', owner)
      .where('acknowledged_at', 'is', null);
    if (id !== undefined) update = update.where('id', '=', id);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Acknowledges, for every owner, the unacknowledged notices of `action` whose evidence names the user
   * `uidNumber`, as done by `by`; answers how many. The candidates are few (one per administrator).
   */
  async acknowledgeAbout(action: string, uidNumber: number, by: number, at: string, db: Db): Promise<number> {
    const open = await db
      .selectFrom('notifications')
      .select(['id', 'evidence'])
      .where('action', '=', action)
      .where('acknowledged_at', 'is', null)
      .execute();
    const ids = open
      .filter((row) => parseEvidence(row.evidence)?.uidNumber === uidNumber)
      .map((row) => row.id);
    if (!ids.length) return 0;
    await db
      .updateTable('notifications')
      .set({ acknowledged_at: at, acknowledged_by_uid_number: by, updated_at: at })
      .where('id', 'in', ids)
      .execute();
    return ids.length;
  }
}
