import type { NotificationsRepository } from '../notifications/notifications-repository.ts';
import { noticeRow } from '../notifications/notices.ts';
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
    await this.notifications.insert(
      noticeRow({
        ownerUid: record.ownerUid,
        severity: 'warning',
        action: `container.${what}`,
        message,
        node: record.nodeName,
        ctid: record.containerId,
        evidence: { siteId: record.siteId, containerId: record.id, jobId },
      }),
    );
  }
}
