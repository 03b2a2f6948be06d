import type { Kysely, Selectable } from 'kysely';
import { notFound } from '@app/server-kit';
import type { ManagerDB, NotificationsTable } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import { usernameOf } from '../users/users-repository.ts';

export interface NotificationInput {
  source: string;
  severity: 'info' | 'warning' | 'critical';
  message: string;
  node?: string | null | undefined;
  ctid?: number | string | null | undefined;
  owner?: string | null | undefined;
  action?: string | null | undefined;
  evidence?: object | null | undefined;
  ts?: number | undefined;
}

export interface Notification {
  id: number;
  source: string;
  severity: NotificationsTable['severity'];
  node: string | null;
  ctid: string | null;
  owner: string | null;
  action: string | null;
  message: string;
  evidence: Record<string, unknown> | null;
  eventAt: string | null;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

type Row = Selectable<NotificationsTable> & { owner: string | null; acknowledged_by: string | null };

const toNotification = (row: Row): Notification => ({
  id: row.id,
  source: row.source,
  severity: row.severity,
  node: row.node,
  ctid: row.node_ctid,
  owner: row.owner,
  action: row.action,
  message: row.message,
  evidence: row.evidence ? (JSON.parse(row.evidence) as Record<string, unknown>) : null,
  eventAt: row.event_at,
  acknowledgedAt: row.acknowledged_at,
  acknowledgedBy: row.acknowledged_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * Events posted by node-side tools, shown to the owner of the container they concern. Owners and
 * acknowledgers are stored as uidNumbers and answered as usernames.
 */
export class NotificationsService {
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

  /** An owner named by the tool is a current user; a name nobody has is stored as no owner. */
  private async ownerNamed(username: string | null): Promise<number | null> {
    if (!username) return null;
    const row = await this.db
      .selectFrom('users')
      .select('uid_number')
      .where('uid', '=', username)
      .executeTakeFirst();
    return row?.uid_number ?? null;
  }

  async create(input: NotificationInput): Promise<Notification> {
    const ctid =
      input.ctid === undefined || input.ctid === null || input.ctid === '' ? null : String(input.ctid);
    const node = input.node || null;
    const owner =
      input.owner !== undefined ? await this.ownerNamed(input.owner) : await this.ownerOf(node, ctid);
    const now = nowIso();
    const { id } = await this.db
      .insertInto('notifications')
      .values({
        source: input.source,
        severity: input.severity,
        node,
        node_ctid: ctid,
        owner_uid_number: owner,
        action: input.action || null,
        message: input.message,
        evidence: input.evidence ? JSON.stringify(input.evidence) : null,
        event_at: input.ts !== undefined ? new Date(input.ts * 1000).toISOString() : null,
        acknowledged_at: null,
        acknowledged_by_uid_number: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return toNotification(await this.select().where('id', '=', id).executeTakeFirstOrThrow());
  }

  /** The owner of the container `ctid` on node `node`, when both are known and match one container. */
  private async ownerOf(node: string | null, ctid: string | null): Promise<number | null> {
    if (!node || !ctid) return null;
    const row = await this.db
      .selectFrom('containers')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .select('containers.owner_uid_number')
      .where('nodes.name', '=', node)
      .where('containers.container_id', '=', ctid)
      .executeTakeFirst();
    return row?.owner_uid_number ?? null;
  }

  /** The owner's (uidNumber) notifications: unacknowledged first, then newest first. */
  async list(owner: number, limit: number): Promise<Notification[]> {
    const rows = await this.select()
      .where('owner_uid_number', '=', owner)
      .orderBy((eb) => eb.case().when('acknowledged_at', 'is', null).then(0).else(1).end())
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toNotification);
  }

  async acknowledge(owner: number, id: number): Promise<Notification> {
    const now = nowIso();
    await this.db
      .updateTable('notifications')
      .set({ acknowledged_at: now, acknowledged_by_uid_number: owner, updated_at: now })
      .where('id', '=', id)
      .where('owner_uid_number', '=', owner)
      .where('acknowledged_at', 'is', null)
      .execute();
    const row = await this.select()
      .where('id', '=', id)
      .where('owner_uid_number', '=', owner)
      .executeTakeFirst();
    if (!row) throw notFound('Notification not found.');
    return toNotification(row);
  }

  async acknowledgeAll(owner: number): Promise<number> {
    const now = nowIso();
    const result = await this.db
      .updateTable('notifications')
      .set({ acknowledged_at: now, acknowledged_by_uid_number: owner, updated_at: now })
      .where('owner_uid_number', '=', owner)
      .where('acknowledged_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
