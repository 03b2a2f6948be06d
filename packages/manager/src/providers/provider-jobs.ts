import type { JobHandlers } from '@app/server-kit';
import type { NodesService } from '../nodes/nodes-service.ts';
import type { ProviderRegistry } from './registry.ts';
import type { CreateSpec, ReconfigureSpec } from './types.ts';

export interface InstanceCreatePayload {
  nodeId: number;
  spec: CreateSpec;
}

export interface InstanceActionPayload {
  nodeId: number;
  containerId: string;
}

export interface InstanceReconfigurePayload extends InstanceActionPayload {
  spec: ReconfigureSpec;
}

export const INSTANCE_COMMANDS = {
  create: 'instance.create',
  start: 'instance.start',
  stop: 'instance.stop',
  restart: 'instance.restart',
  reconfigure: 'instance.reconfigure',
  delete: 'instance.delete',
} as const;

/**
 * Job handlers for the provider operations on one node. Container jobs build on these:
 * they add the database bookkeeping around the same provider calls.
 */
export function registerInstanceJobs(
  handlers: JobHandlers,
  nodes: NodesService,
  providers: ProviderRegistry,
) {
  const onNode = async (nodeId: number) => {
    const node = await nodes.connectionById(nodeId);
    return { node, provider: providers.for(node) };
  };

  handlers.register<InstanceCreatePayload>(INSTANCE_COMMANDS.create, {
    async run(payload, ctx) {
      const { node, provider } = await onNode(payload.nodeId);
      const { containerId } = await provider.create(node, payload.spec, ctx);
      providers.invalidate(node.id);
      await ctx.log(`Container ${payload.spec.hostname} created on ${node.name} as ${containerId}.`);
    },
  });

  for (const action of ['start', 'stop', 'restart'] as const) {
    handlers.register<InstanceActionPayload>(INSTANCE_COMMANDS[action], {
      retryOnTakeover: true,
      async run(payload, ctx) {
        const { node, provider } = await onNode(payload.nodeId);
        await provider[action](node, payload.containerId, ctx);
        providers.invalidate(node.id);
      },
    });
  }

  handlers.register<InstanceReconfigurePayload>(INSTANCE_COMMANDS.reconfigure, {
    retryOnTakeover: true,
    async run(payload, ctx) {
      const { node, provider } = await onNode(payload.nodeId);
      const { containerId } = await provider.reconfigure(node, payload.containerId, payload.spec, ctx);
      if (containerId !== payload.containerId) await ctx.log(`The container is now ${containerId}.`);
      providers.invalidate(node.id);
    },
  });

  handlers.register<InstanceActionPayload>(INSTANCE_COMMANDS.delete, {
    async run(payload, ctx) {
      const { node, provider } = await onNode(payload.nodeId);
      await provider.delete(node, payload.containerId, ctx);
      providers.invalidate(node.id);
    },
  });
}
