import type { Kysely } from 'kysely';
import { notFound, retryOnConflict, validationFailed } from '@app/server-kit';
import type { ManagerDB } from '../db/schema.ts';
import type { PrincipalCache } from '../auth/principal-cache.ts';
import { nowIso } from '../common/time.ts';

export interface Group {
  gidNumber: number;
  cn: string;
  isAdmin: boolean;
  userCount?: number;
}

export interface GroupInput {
  gidNumber?: number | undefined;
  cn: string;
  isAdmin?: boolean | undefined;
}

const CN = /^[a-z_][a-z0-9_.-]{0,63}$/;

export class GroupsService {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly principals: PrincipalCache,
  ) {}

  private query() {
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

  async list(): Promise<Group[]> {
    return (await this.query().execute()).map(toGroup);
  }

  async get(gidNumber: number): Promise<Group> {
    const row = await this.query().where('groups.gid_number', '=', gidNumber).executeTakeFirst();
    if (!row) throw notFound('Group not found.');
    return toGroup(row);
  }

  async create(input: GroupInput): Promise<Group> {
    checkCn(input.cn);
    return retryOnConflict(input.gidNumber ? [] : ['gid_number'], async () => {
      let gidNumber = input.gidNumber;
      if (!gidNumber) {
        const max = await this.db
          .selectFrom('groups')
          .select((eb) => eb.fn.max('gid_number').as('max'))
          .executeTakeFirst();
        gidNumber = Math.max(Number(max?.max ?? 0) + 1, 2000);
      }
      const now = nowIso();
      await this.db
        .insertInto('groups')
        .values({
          gid_number: gidNumber,
          cn: input.cn,
          is_admin: input.isAdmin ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return { gidNumber, cn: input.cn, isAdmin: Boolean(input.isAdmin) };
    });
  }

  async update(gidNumber: number, input: Partial<GroupInput>): Promise<Group> {
    if (input.cn !== undefined) checkCn(input.cn);
    const result = await this.db
      .updateTable('groups')
      .set({
        ...(input.cn !== undefined ? { cn: input.cn } : {}),
        ...(input.isAdmin !== undefined ? { is_admin: input.isAdmin ? 1 : 0 } : {}),
        updated_at: nowIso(),
      })
      .where('gid_number', '=', gidNumber)
      .executeTakeFirst();
    if (!Number(result.numUpdatedRows)) throw notFound('Group not found.');
    this.principals.clear();
    const { userCount: _omit, ...group } = await this.get(gidNumber);
    return group;
  }

  async delete(gidNumber: number): Promise<void> {
    const result = await this.db.deleteFrom('groups').where('gid_number', '=', gidNumber).executeTakeFirst();
    if (!Number(result.numDeletedRows)) throw notFound('Group not found.');
    this.principals.clear();
  }
}

function checkCn(cn: string) {
  if (!CN.test(cn))
    throw validationFailed({
      cn: 'must start with a lowercase letter or _ and use only a-z, 0-9, _, . and -',
    });
}

const toGroup = (row: {
  gid_number: number;
  cn: string;
  is_admin: number;
  user_count: number | string;
}): Group => ({
  gidNumber: row.gid_number,
  cn: row.cn,
  isAdmin: Boolean(row.is_admin),
  userCount: Number(row.user_count),
});
