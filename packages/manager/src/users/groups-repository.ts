import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { GroupsTable, ManagerDB } from '../db/schema.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/** A group row with the number of its members. */
export interface GroupWithUserCount {
  gid_number: number;
  cn: string;
  is_admin: number;
  user_count: number | string;
}

/** `groups`, with their member counts from `user_groups`. */
export class GroupsRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  private withUserCounts() {
    return this.db
      .selectFrom('groups')
      .leftJoin('user_groups', 'user_groups.gid_number', 'groups.gid_number')
      .select((eb) => [
        'groups.gid_number',
        'groups.cn',
        'groups.is_admin',
        eb.fn.count<number>('user_groups.uid_number').as('user_count'),
      ])
      .groupBy(['groups.gid_number', 'groups.cn', 'groups.is_admin'])
      .orderBy('groups.gid_number');
  }

  listWithUserCounts(): Promise<GroupWithUserCount[]> {
    return this.withUserCounts().execute();
  }

  withUserCountById(gidNumber: number): Promise<GroupWithUserCount | undefined> {
    return this.withUserCounts().where('groups.gid_number', '=', gidNumber).executeTakeFirst();
  }

  /** The highest gidNumber in use, or undefined when there are no groups. */
  async maxGidNumber(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('groups')
      .select((eb) => eb.fn.max('gid_number').as('max'))
      .executeTakeFirst();
    return row?.max == null ? undefined : Number(row.max);
  }

  async insert(values: Insertable<GroupsTable>, db: Db = this.db): Promise<void> {
    await db.insertInto('groups').values(values).execute();
  }

  /** False when there is no such group. */
  async update(gidNumber: number, values: Updateable<GroupsTable>, db: Db = this.db): Promise<boolean> {
    const result = await db
      .updateTable('groups')
      .set(values)
      .where('gid_number', '=', gidNumber)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** False when there is no such group. */
  async delete(gidNumber: number, db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('groups').where('gid_number', '=', gidNumber).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Those of these gidNumbers that name a group. */
  async existing(gidNumbers: number[], db: Db = this.db): Promise<number[]> {
    const rows = await db
      .selectFrom('groups')
      .select('gid_number')
      .where('gid_number', 'in', gidNumbers)
      .execute();
    return rows.map((row) => row.gid_number);
  }
}
