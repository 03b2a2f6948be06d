import type { Kysely, Transaction } from 'kysely';
import type { ManagerDB, ResourceRequestsTable } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { Resources } from '../providers/types.ts';
import { usernameOf } from '../users/users-repository.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

export const RESOURCE_TYPES = ['memory', 'swap', 'cpus', 'rootfs'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** What every container gets unless an approved request says otherwise; also the auto-approval bound. */
export const RESOURCE_DEFAULTS: Record<ResourceType, number> = { cpus: 4, memory: 4096, swap: 0, rootfs: 50 };

export type EffectiveResources = Record<ResourceType, number>;

/** The reviewer of automatic approvals, answered as `system`: a uidNumber no user has. */
export const SYSTEM_REVIEWER = 0;

export const toResources = (values: EffectiveResources): Resources => ({
  cores: values.cpus,
  memoryMb: values.memory,
  swapMb: values.swap,
  rootfsGb: values.rootfs,
});

export interface ResourceRequest {
  id: number;
  siteId: number;
  hostname: string;
  /** The requester's uidNumber (not part of the answer). */
  uidNumber: number;
  username: string;
  resourceType: ResourceType;
  value: number;
  status: 'pending' | 'approved' | 'denied';
  comment: string | null;
  adminComment: string | null;
  reviewedBy: string | null;
  reviewedAt: string | null;
  createdAt: string;
  updatedAt: string;
  site: { id: number; name: string } | null;
}

export interface RequestFilter {
  status?: 'pending' | 'approved' | 'denied' | 'closed' | undefined;
  siteId?: number | undefined;
  /** Only this requester's (uidNumber). */
  uidNumber?: number | undefined;
}

export type NewRequest = Omit<ResourceRequestsTable, 'id' | 'created_at' | 'updated_at'>;

export class ResourceRequestsRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  private select(db: Db = this.db) {
    return db
      .selectFrom('resource_requests')
      .leftJoin('sites', 'sites.id', 'resource_requests.site_id')
      .selectAll('resource_requests')
      .select([
        'sites.name as site_name',
        usernameOf('resource_requests.uid_number').as('username'),
        usernameOf('resource_requests.reviewed_by_uid_number').as('reviewer'),
      ]);
  }

  async list(filter: RequestFilter): Promise<ResourceRequest[]> {
    let query = this.select();
    if (filter.status === 'closed')
      query = query.where('resource_requests.status', 'in', ['approved', 'denied']);
    else if (filter.status) query = query.where('resource_requests.status', '=', filter.status);
    if (filter.siteId !== undefined) query = query.where('resource_requests.site_id', '=', filter.siteId);
    if (filter.uidNumber !== undefined)
      query = query.where('resource_requests.uid_number', '=', filter.uidNumber);
    return (await query.orderBy('resource_requests.id', 'desc').execute()).map(toRequest);
  }

  async countPending(uidNumber?: number): Promise<number> {
    let query = this.db
      .selectFrom('resource_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending');
    if (uidNumber !== undefined) query = query.where('uid_number', '=', uidNumber);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  async get(id: number, db: Db = this.db): Promise<ResourceRequest | undefined> {
    const row = await this.select(db).where('resource_requests.id', '=', id).executeTakeFirst();
    return row && toRequest(row);
  }

  async insert(values: NewRequest, db: Db = this.db): Promise<ResourceRequest> {
    const now = nowIso();
    const { id } = await db
      .insertInto('resource_requests')
      .values({ ...values, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await this.get(id, db))!;
  }

  /** pending → approved or denied; undefined when the request was no longer pending. */
  async review(
    id: number,
    status: 'approved' | 'denied',
    reviewer: number,
    adminComment: string | null,
    db: Db = this.db,
  ): Promise<ResourceRequest | undefined> {
    const now = nowIso();
    const result = await db
      .updateTable('resource_requests')
      .set({
        status,
        reviewed_by_uid_number: reviewer,
        reviewed_at: now,
        admin_comment: adminComment,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) ? this.get(id, db) : undefined;
  }

  /** The defaults overlaid with the latest approved value of each type. */
  async effective(
    siteId: number,
    hostname: string,
    uidNumber: number,
    db: Db = this.db,
  ): Promise<EffectiveResources> {
    const rows = await db
      .selectFrom('resource_requests')
      .select(['resource_type', 'value'])
      .where('site_id', '=', siteId)
      .where('hostname', '=', hostname.toLowerCase())
      .where('uid_number', '=', uidNumber)
      .where('status', '=', 'approved')
      .orderBy('reviewed_at')
      .orderBy('id')
      .execute();
    const values = { ...RESOURCE_DEFAULTS };
    for (const row of rows) values[row.resource_type] = row.value;
    return values;
  }
}

type Row = Awaited<ReturnType<ReturnType<ResourceRequestsRepository['select']>['execute']>>[number];

const toRequest = (row: Row): ResourceRequest => ({
  id: row.id,
  siteId: row.site_id,
  hostname: row.hostname,
  uidNumber: row.uid_number,
  username: row.username ?? `#${row.uid_number}`,
  resourceType: row.resource_type,
  value: row.value,
  status: row.status,
  comment: row.comment,
  adminComment: row.admin_comment,
  reviewedBy:
    row.reviewed_by_uid_number === SYSTEM_REVIEWER
      ? 'system'
      : row.reviewed_by_uid_number === null
        ? null
        : (row.reviewer ?? `#${row.reviewed_by_uid_number}`),
  reviewedAt: row.reviewed_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  site: row.site_name === null ? null : { id: row.site_id, name: row.site_name },
});
