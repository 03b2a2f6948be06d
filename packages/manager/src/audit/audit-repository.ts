import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { AuditEventsTable, ManagerDB } from '../db/schema.ts';
import type { AuditFilter } from './audit-entry.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;
export type AuditRow = Selectable<AuditEventsTable>;

/** `audit_events`: appended, listed newest first by id (keyset pages), pruned by age. */
export class AuditRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  /** Appends one entry (in `db`, a transaction of the change it records, when given). */
  async insert(row: Insertable<AuditEventsTable>, db: Db = this.db): Promise<void> {
    await db.insertInto('audit_events').values(row).execute();
  }

  /** Sets the final HTTP outcome of the entry a request wrote in its transaction; false when there is none. */
  async settle(
    requestId: string,
    outcome: AuditRow['outcome'],
    httpStatus: number,
    errorCode: string | null,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('audit_events')
      .set({ outcome, http_status: httpStatus, error_code: errorCode })
      .where('request_id', '=', requestId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Up to `limit` entries matching `filter`, newest first, with ids below `before` when given. */
  page(filter: AuditFilter, limit: number, before?: number): Promise<AuditRow[]> {
    let query = this.db.selectFrom('audit_events').selectAll().orderBy('id', 'desc').limit(limit);
    if (before !== undefined) query = query.where('id', '<', before);
    if (filter.uidNumber !== undefined) query = query.where('actor_uid_number', '=', filter.uidNumber);
    if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
    if (filter.containerId !== undefined) query = query.where('container_id', '=', filter.containerId);
    // A prefix's `_` (sign_in) is a one-character wildcard to `like`: it matches itself, and no action differs from another only there.
    if (filter.action?.endsWith('.')) query = query.where('action', 'like', `${filter.action}%`);
    else if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.from) query = query.where('occurred_at', '>=', filter.from);
    if (filter.to) query = query.where('occurred_at', '<', filter.to);
    return query.execute();
  }

  async deleteBefore(occurredAt: string): Promise<number> {
    const result = await this.db
      .deleteFrom('audit_events')
      .where('occurred_at', '<', occurredAt)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
