import type { JobContext, JobHandlers } from '@app/server-kit';
import { ProviderError } from '../providers/types.ts';
import { CONTAINER_COMMANDS } from './container-jobs.ts';
import type { StatusResolver } from './container-status.ts';
import type { OperationDeps, PowerAction } from './container-operations.ts';

export interface ContainerPowerPayload {
  containerId: number;
}

const WANTED_STATE = { start: 'running', stop: 'stopped' } as const;
const DONE = { start: 'already running', stop: 'already stopped' } as const;

/**
 * The start and stop jobs. The node is asked first: an instance already in the wanted state is a
 * success with nothing done, so "make sure it runs" can be sent again safely.
 */
export function registerContainerPower(handlers: JobHandlers, deps: OperationDeps, status: StatusResolver) {
  for (const action of ['start', 'stop'] as const) {
    handlers.register<ContainerPowerPayload>(CONTAINER_COMMANDS[action], {
      retryOnTakeover: true,
      run: (payload, ctx) => power(deps, status, action, payload.containerId, ctx),
    });
  }
}

async function power(
  deps: OperationDeps,
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
