import { notFound, retryOnConflict, validationFailed } from '@app/server-kit';
import type { PrincipalCache } from '../auth/principal-cache.ts';
import { nowIso } from '../common/time.ts';
import type { GroupsRepository, GroupWithUserCount } from './groups-repository.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { LastAdminGuard } from './last-admin-guard.ts';

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

/** Groups; taking away the administrative flag of the last active administrator is refused (409 last_admin). */
export class GroupsService {
  constructor(
    private readonly repo: GroupsRepository,
    private readonly principals: PrincipalCache,
    private readonly adminGuard: LastAdminGuard,
    private readonly audit: AuditLog,
  ) {}

  async list(): Promise<Group[]> {
    return (await this.repo.listWithUserCounts()).map(toGroup);
  }

  async get(gidNumber: number): Promise<Group> {
    const row = await this.repo.withUserCountById(gidNumber);
    if (!row) throw notFound('Group not found.');
    return toGroup(row);
  }

  async create(input: GroupInput): Promise<Group> {
    checkCn(input.cn);
    return retryOnConflict(input.gidNumber ? [] : ['gid_number'], async () => {
      let gidNumber = input.gidNumber;
      if (!gidNumber) {
        gidNumber = Math.max(((await this.repo.maxGidNumber()) ?? 0) + 1, 2000);
      }
      const now = nowIso();
      const row = {
        gid_number: gidNumber,
        cn: input.cn,
        is_admin: input.isAdmin ? 1 : 0,
        created_at: now,
        updated_at: now,
      };
      await this.audit.audited((trx) => this.repo.insert(row, trx), { type: 'group', id: gidNumber });
      return { gidNumber, cn: input.cn, isAdmin: Boolean(input.isAdmin) };
    });
  }

  async update(gidNumber: number, input: Partial<GroupInput>): Promise<Group> {
    if (input.cn !== undefined) checkCn(input.cn);
    const updated = await this.adminGuard.write((trx) =>
      this.repo.update(
        gidNumber,
        {
          ...(input.cn !== undefined ? { cn: input.cn } : {}),
          ...(input.isAdmin !== undefined ? { is_admin: input.isAdmin ? 1 : 0 } : {}),
          updated_at: nowIso(),
        },
        trx,
      ),
    );
    if (!updated) throw notFound('Group not found.');
    this.principals.clear();
    const { userCount: _omit, ...group } = await this.get(gidNumber);
    return group;
  }

  async delete(gidNumber: number): Promise<void> {
    const deleted = await this.adminGuard.write((trx) => this.repo.delete(gidNumber, trx));
    if (!deleted) throw notFound('Group not found.');
    this.principals.clear();
  }
}

function checkCn(cn: string) {
  if (!CN.test(cn))
    throw validationFailed({
      cn: 'must start with a lowercase letter or _ and use only a-z, 0-9, _, . and -',
    });
}

const toGroup = (row: GroupWithUserCount): Group => ({
  gidNumber: row.gid_number,
  cn: row.cn,
  isAdmin: Boolean(row.is_admin),
  userCount: Number(row.user_count),
});
