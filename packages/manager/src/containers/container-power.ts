import { uniqueViolationColumns, type JobContext, type JobHandlers } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';
import { fail } from '../errors/catalogue.ts';
import { ProviderError } from '../providers/types.ts';
import { CONTAINER_COMMANDS } from './container-jobs.ts';
import type { StatusResolver } from './container-status.ts';
import type { ContainerDeps, ContainersService } from './containers-service.ts';

export type PowerAction = 'start' | 'stop';

export interface ContainerPowerPayload {
  containerId: number;
}

/** The jobs that change what runs on the node: one of them at a time per container. */
const EXCLUSIVE = [CONTAINER_COMMANDS.start, CONTAINER_COMMANDS.stop, CONTAINER_COMMANDS.apply];

const WANTED_STATE = { start: 'running', stop: 'stopped' } as const;
const DONE = { start: 'already running', stop: 'already stopped' } as const;

type PowerDeps = Pick<ContainerDeps, 'repo' | 'nodes' | 'providers' | 'jobs'>;

/** POST …/containers/{id}/start and …/stop: the rights and the queue; the job does the work. */
export class ContainerPower {
  constructor(
    private readonly deps: PowerDeps,
    private readonly containers: ContainersService,
  ) {}

  async request(principal: Principal, siteId: number, id: number, action: PowerAction) {
    const record = await this.containers.record(principal, siteId, id, 'manage');
    if (!record.containerId) {
      throw fail(
        'no_instance',
        `${record.hostname} has no instance to ${action}: it is being created or its create failed.`,
      );
    }
    const busy = () =>
      fail('conflict', `${record.hostname} is being started, stopped or changed: wait for that job to end.`);
    if (await this.deps.jobs.activeFor(EXCLUSIVE, record.id)) throw busy();
    const payload: ContainerPowerPayload = { containerId: record.id };
    try {
      const job = await this.deps.jobs.create(CONTAINER_COMMANDS[action], principal.uidNumber, payload);
      return { containerId: record.id, jobId: job.id };
    } catch (error) {
      // Another request queued a start or stop between the check and the insert.
      if (uniqueViolationColumns(error)?.includes('container_id')) throw busy();
      throw error;
    }
  }
}

/**
 * The start and stop jobs. The node is asked first: an instance already in the wanted state is a
 * success with nothing done, so "make sure it runs" can be sent again safely.
 */
export function registerContainerPower(handlers: JobHandlers, deps: PowerDeps, status: StatusResolver) {
  for (const action of ['start', 'stop'] as const) {
    handlers.register<ContainerPowerPayload>(CONTAINER_COMMANDS[action], {
      retryOnTakeover: true,
      run: (payload, ctx) => power(deps, status, action, payload.containerId, ctx),
    });
  }
}

async function power(
  deps: PowerDeps,
  status: StatusResolver,
  action: PowerAction,
  id: number,
  ctx: JobContext,
) {
  const record = await deps.repo.getById(id);
  if (!record?.containerId) {
    await ctx.log(`The container has no instance (any more); nothing to ${action}.`);
    return;
  }
  const live = await status.instanceOf(record);
  if (!live.reachable) throw new ProviderError(`Node ${record.nodeName} cannot be reached (${live.reason}).`);
  if (!live.instance) {
    throw new ProviderError(`Instance ${record.containerId} is no longer on ${record.nodeName}.`);
  }
  if (live.instance.state === WANTED_STATE[action]) {
    await ctx.log(`${record.hostname} is ${DONE[action]}; nothing to do.`);
    return;
  }
  const node = await deps.nodes.connectionById(record.nodeId);
  try {
    await deps.providers.for(node)[action](node, record.containerId, ctx);
  } finally {
    deps.providers.invalidate(node.id);
  }
}
