import { notFound } from '@app/server-kit';
import type { NotificationsTable } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { ContainersRepository } from '../containers/containers-repository.ts';
import type { UsersRepository } from '../users/users-repository.ts';
import type { NotificationRow, NotificationsRepository } from './notifications-repository.ts';
import { parseEvidence } from './evidence.ts';

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

const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  source: row.source,
  severity: row.severity,
  node: row.node,
  ctid: row.node_ctid,
  owner: row.owner,
  action: row.action,
  message: row.message,
  evidence: parseEvidence(row.evidence),
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
  constructor(
    private readonly repo: NotificationsRepository,
    private readonly users: UsersRepository,
    private readonly containers: ContainersRepository,
    private readonly audit: Pick<AuditLog, 'audited'>,
  ) {}

  /** An owner named by the tool is a current user; a name nobody has is stored as no owner. */
  private async ownerNamed(username: string | null): Promise<number | null> {
    if (!username) return null;
    const user = await this.users.findByUid(username);
    return user?.uid_number ?? null;
  }

  async create(input: NotificationInput): Promise<Notification> {
    const ctid =
      input.ctid === undefined || input.ctid === null || input.ctid === '' ? null : String(input.ctid);
    const node = input.node || null;
    const owner =
      input.owner !== undefined ? await this.ownerNamed(input.owner) : await this.ownerOf(node, ctid);
    const now = nowIso();
    const id = await this.audit.audited(
      (trx) =>
        this.repo.insert(
          {
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
          },
          trx,
        ),
      (created) => ({ type: 'notification', id: created }),
    );
    return toNotification(await this.repo.byId(id));
  }

  /** The owner of the container `ctid` on node `node`, when both are known and match one container. */
  private async ownerOf(node: string | null, ctid: string | null): Promise<number | null> {
    if (!node || !ctid) return null;
    return this.containers.ownerOnNode(node, ctid);
  }

  /** The owner's (uidNumber) notifications: unacknowledged first, then newest first. */
  async list(owner: number, limit: number): Promise<Notification[]> {
    return (await this.repo.listOwned(owner, limit)).map(toNotification);
  }

  async acknowledge(owner: number, id: number): Promise<Notification> {
    await this.audit.audited((trx) => this.repo.acknowledge(owner, nowIso(), id, trx));
    const row = await this.repo.ownedById(owner, id);
    if (!row) throw notFound('Notification not found.');
    return toNotification(row);
  }

  acknowledgeAll(owner: number): Promise<number> {
    return this.audit.audited((trx) => this.repo.acknowledge(owner, nowIso(), undefined, trx));
  }
}
