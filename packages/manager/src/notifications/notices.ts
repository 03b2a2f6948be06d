import type { Insertable, Kysely, Transaction } from 'kysely';
import type { ManagerDB, NotificationsTable } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { UsersRepository } from '../users/users-repository.ts';
import type { NotificationsRepository } from './notifications-repository.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

export interface Notice {
  ownerUid: number;
  action: string;
  message: string;
  severity?: NotificationsTable['severity'];
  node?: string | null;
  ctid?: string | null;
  evidence?: Record<string, unknown>;
}

/** A notification the manager raises itself (source `manager`), unacknowledged, dated now. */
export function noticeRow(notice: Notice): Insertable<NotificationsTable> {
  const now = nowIso();
  return {
    source: 'manager',
    severity: notice.severity ?? 'info',
    node: notice.node ?? null,
    node_ctid: notice.ctid ?? null,
    owner_uid_number: notice.ownerUid,
    action: notice.action,
    message: notice.message,
    evidence: notice.evidence ? JSON.stringify(notice.evidence) : null,
    event_at: now,
    acknowledged_at: null,
    acknowledged_by_uid_number: null,
    created_at: now,
    updated_at: now,
  };
}

export interface SharedContainer {
  id: number;
  siteId: number;
  hostname: string;
}

/**
 * Tells people what waits for them: administrators of a registration to approve, a user of a container
 * shared with them. Written in the transaction of the change, so a notice exists exactly when it happened.
 */
export class Notices {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly users: UsersRepository,
  ) {}

  async registrationWaiting(trx: Db, user: { uid: string; uidNumber: number }): Promise<void> {
    const admins = await this.users.activeAdminNumbers(trx);
    const rows = admins.map((ownerUid) =>
      noticeRow({
        ownerUid,
        action: 'user.pending',
        message: `${user.uid} registered and waits for approval: approve or suspend the account under Users.`,
        evidence: { uidNumber: user.uidNumber },
      }),
    );
    await this.notifications.insertMany(rows, trx);
  }

  /**
   * Once an administrator (`by`) approved, suspended or deleted a waiting account, every administrator's
   * "waits for approval" notice about it has done its job: left unread it would ask for a decision made.
   */
  async registrationDecided(trx: Db, uidNumber: number, by: number): Promise<void> {
    await this.notifications.acknowledgeAbout('user.pending', uidNumber, by, nowIso(), trx);
  }

  async containerShared(trx: Db, container: SharedContainer, by: string, uidNumbers: number[]) {
    const rows = uidNumbers.map((ownerUid) =>
      noticeRow({
        ownerUid,
        action: 'container.shared',
        message: `${by} shared ${container.hostname} with you.`,
        evidence: { siteId: container.siteId, containerId: container.id },
      }),
    );
    await this.notifications.insertMany(rows, trx);
  }

  /** Each failing certificate of a site, to every administrator. */
  async certificatesFailing(
    trx: Db,
    siteId: number,
    failing: { hostname: string; lastError: string | null }[],
  ) {
    const admins = await this.users.activeAdminNumbers(trx);
    const rows = admins.flatMap((ownerUid) =>
      failing.map((certificate) =>
        noticeRow({
          ownerUid,
          severity: 'warning',
          action: 'certificate.failed',
          message: `The certificate for ${certificate.hostname} could not be obtained or renewed: ${certificate.lastError}. The last good one stays in use; see External domains.`,
          evidence: { siteId, hostname: certificate.hostname },
        }),
      ),
    );
    await this.notifications.insertMany(rows, trx);
  }

  /** An alert firing or resolving, to every administrator and `ownerUid` when given. */
  async alert(
    trx: Db,
    alert: Pick<Notice, 'action' | 'message' | 'severity' | 'evidence'> & { ownerUid: number | null },
  ) {
    const { ownerUid, ...notice } = alert;
    const recipients = new Set(await this.users.activeAdminNumbers(trx));
    if (ownerUid !== null) recipients.add(ownerUid);
    await this.notifications.insertMany(
      [...recipients].map((uid) => noticeRow({ ...notice, ownerUid: uid })),
      trx,
    );
  }

  /** An alert's webhook that failed for good, to every administrator. */
  async webhookFailed(rule: { id: number; name: string }, url: string, detail: string, attempts: number) {
    const admins = await this.users.activeAdminNumbers();
    const rows = admins.map((ownerUid) =>
      noticeRow({
        ownerUid,
        severity: 'warning',
        action: 'alert.webhook_failed',
        message: `The webhook of the alert rule "${rule.name}" (${url}) failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${detail}. Check the receiver, then edit the rule under Alert rules.`,
        evidence: { ruleId: rule.id },
      }),
    );
    await this.notifications.insertMany(rows);
  }
}
