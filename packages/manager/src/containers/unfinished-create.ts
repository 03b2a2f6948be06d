import { retryWhileUnavailable } from '@app/server-kit';
import type { OperationContext } from '../providers/types.ts';
import type { ContainerJobDeps } from './container-jobs.ts';

/** Notes, before the provider makes it, what a create names on the node (its worker may die next). */
export async function recordMade(deps: ContainerJobDeps, id: number, instance: string) {
  await retryWhileUnavailable(() => deps.containers.update(deps.db, id, { made_instance: instance }));
}

/**
 * Undoes the create of a worker that died: removes from the node what it named there and never
 * recorded, leaves the container `failed` and tells its owner. When the node cannot remove it, the
 * output says what is left and where.
 */
export async function discardUnfinished(deps: ContainerJobDeps, id: number, ctx: OperationContext) {
  const record = await deps.containers.getById(id);
  if (!record) return;
  if (record.containerId) {
    await ctx.log(`${record.hostname} had been created as ${record.containerId}; it stays.`);
    return;
  }
  const made = record.madeInstance;
  if (made) {
    const node = await deps.nodes.connectionById(record.nodeId);
    try {
      const removed = await deps.providers.for(node).discard(node, made, record.hostname, ctx);
      await ctx.log(
        removed
          ? `Removed ${made} (${record.hostname}), which the create had made on ${node.name}.`
          : `Nothing of ${record.hostname} was left on ${node.name}.`,
      );
    } catch (error) {
      await ctx.log(
        `Instance ${made} (${record.hostname}) may be left on node ${node.name}: it could not be removed ` +
          `(${error instanceof Error ? error.message : String(error)}); remove it there.`,
      );
      await deps.containers.update(deps.db, id, { status: 'failed' });
      if (record.creationJobId) await deps.notices.jobFailed(record, record.creationJobId, 'create', ctx);
      return;
    } finally {
      deps.providers.invalidate(node.id);
    }
  } else {
    await ctx.log('The create had not made anything on the node yet.');
  }
  await deps.containers.update(deps.db, id, { status: 'failed', made_instance: null });
  if (record.creationJobId) await deps.notices.jobFailed(record, record.creationJobId, 'create', ctx);
}
