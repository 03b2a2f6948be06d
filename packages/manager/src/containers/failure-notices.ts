import { nowIso } from '../common/time.ts';
import type { NotificationsRepository } from '../notifications/notifications-repository.ts';
import type { OperationContext } from '../providers/types.ts';
import type { ContainerRecord } from './containers-repository.ts';

/**
 * Tells a container's owner, in their notifications, that a job of the container failed. The message
 * names the job, never the node's answer (which may carry addresses or credentials): the log has it.
 */
export class FailureNotices {
  constructor(private readonly notifications: NotificationsRepository) {}

  /** Tells the owner; a notice that cannot be written is only logged (the job's outcome stands). */
  async jobFailed(
    record: ContainerRecord,
    jobId: number,
    what: 'create' | 'apply',
    ctx: OperationContext,
  ): Promise<void> {
    try {
      await this.insert(record, jobId, what);
    } catch (error) {
      await ctx.log(
        `Warning: the owner could not be notified (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
  }

  private async insert(record: ContainerRecord, jobId: number, what: 'create' | 'apply') {
    const message =
      what === 'create'
        ? `Creating ${record.hostname} failed (job ${jobId}): open the container to retry or delete it.`
        : `Changing or restarting ${record.hostname} failed (job ${jobId}): see the job's log.`;
    const now = nowIso();
    await this.notifications.insert({
      source: 'manager',
      severity: 'warning',
      node: record.nodeName,
      node_ctid: record.containerId,
      owner_uid_number: record.ownerUid,
      action: `container.${what}`,
      message,
      evidence: JSON.stringify({ siteId: record.siteId, containerId: record.id, jobId }),
      event_at: now,
      acknowledged_at: null,
      acknowledged_by_uid_number: null,
      created_at: now,
      updated_at: now,
    });
  }
}
