import type { NodesService } from '../nodes/nodes-service.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { InstanceInfo, NodeConnection, NodeInstances } from '../providers/types.ts';
import type { ContainerRecord } from './containers-repository.ts';

export const CONTAINER_STATUSES = ['running', 'offline', 'creating', 'failed', 'missing', 'unknown'] as const;
export type ContainerStatus = (typeof CONTAINER_STATUSES)[number];

/** The six-state table of the spec, for one container given its node's batch answer. */
export function statusOf(record: ContainerRecord, node: NodeInstances | undefined): ContainerStatus {
  // Without a recorded instance the create job alone tells: a node out of reach changes nothing.
  const fromJob = record.containerId ? undefined : createStatusOf(record.creationJobStatus);
  if (fromJob) return fromJob;
  if (!node || !node.reachable) return 'unknown';
  const instance = record.containerId ? node.instances.get(record.containerId) : undefined;
  if (instance) return instance.state === 'running' ? 'running' : 'offline';
  return createStatusOf(record.creationJobStatus) ?? 'missing';
}

function createStatusOf(job: ContainerRecord['creationJobStatus']): 'creating' | 'failed' | undefined {
  if (job === 'pending' || job === 'running') return 'creating';
  if (job === 'failure' || job === 'cancelled') return 'failed';
  return undefined;
}

/** Batch status calls already on their way, by node id. */
export type PendingAnswers = Map<number, Promise<NodeInstances>>;

/**
 * Resolves statuses on read: one batch call per node involved (in parallel, each bounded by the
 * registry's timeout and reused for a few seconds), never one per container.
 */
export class StatusResolver {
  constructor(
    private readonly nodes: NodesService,
    private readonly providers: ProviderRegistry,
  ) {}

  /**
   * Starts the batch call of every node of a site (or of one of its nodes) at once, so the nodes'
   * latency overlaps the database reads of a list instead of following them.
   */
  async askSite(siteId: number, nodeId?: number): Promise<PendingAnswers> {
    return this.ask(await this.nodes.connectionsOfSite(siteId, nodeId));
  }

  async nodeAnswers(nodeIds: Iterable<number>): Promise<Map<number, NodeInstances>> {
    const pending = this.ask(await this.nodes.connectionsByIds([...new Set(nodeIds)]));
    return new Map(await Promise.all([...pending].map(async ([id, answer]) => [id, await answer] as const)));
  }

  /** Statuses of the records; waits only for the nodes they live on. */
  async resolve(records: ContainerRecord[], pending?: PendingAnswers): Promise<Map<number, ContainerStatus>> {
    const answers = pending
      ? await settle(
          pending,
          records.map((record) => record.nodeId),
        )
      : await this.nodeAnswers(records.map((record) => record.nodeId));
    return new Map(records.map((record) => [record.id, statusOf(record, answers.get(record.nodeId))]));
  }

  /** The live instance of one container (fresh answer), or why it cannot be told. */
  async instanceOf(
    record: ContainerRecord,
  ): Promise<{ reachable: false; reason: string } | { reachable: true; instance: InstanceInfo | undefined }> {
    this.providers.invalidate(record.nodeId);
    const answer = (await this.nodeAnswers([record.nodeId])).get(record.nodeId);
    if (!answer) return { reachable: false, reason: 'the node no longer exists' };
    if (!answer.reachable) return answer;
    return {
      reachable: true,
      instance: record.containerId ? answer.instances.get(record.containerId) : undefined,
    };
  }

  private ask(connections: NodeConnection[]): PendingAnswers {
    return new Map(connections.map((node) => [node.id, this.providers.instances(node)]));
  }
}

async function settle(pending: PendingAnswers, nodeIds: number[]): Promise<Map<number, NodeInstances>> {
  const wanted = [...new Set(nodeIds)].filter((id) => pending.has(id));
  return new Map(await Promise.all(wanted.map(async (id) => [id, await pending.get(id)!] as const)));
}
