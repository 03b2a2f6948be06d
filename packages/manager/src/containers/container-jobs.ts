import type { Kysely } from 'kysely';
import { JobTimeoutError, retryWhileUnavailable, type JobContext, type JobHandlers } from '@app/server-kit';
import type { ManagerDB } from '../db/schema.ts';
import type { NodesService } from '../nodes/nodes-service.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { NodeConnection, Provider, ReconfigureSpec } from '../providers/types.ts';
import type { SitesService } from '../sites/sites-service.ts';
import { siteSubnet } from '../sites/network-rules.ts';
import type { CrossSiteDns } from '../dns/cross-site-dns.ts';
import type { ServicesRepository } from '../services/services-repository.ts';
import {
  toResources,
  type ResourceRequestsRepository,
} from '../resource-requests/resource-requests-repository.ts';
import type { VolumeWaiter } from '../volumes/volume-waiter.ts';
import type { ImageVolumes } from '../volumes/image-volumes.ts';
import type { ContainerRecord, ContainersRepository } from './containers-repository.ts';
import { discardUnfinished, recordMade } from './unfinished-create.ts';
import type { FailureNotices } from './failure-notices.ts';

export const CONTAINER_COMMANDS = {
  create: 'container.create',
  apply: 'container.apply',
  delete: 'container.delete',
  start: 'container.start',
  stop: 'container.stop',
  exec: 'container.exec',
} as const;

/** The lane of container.exec jobs: its own slots of each worker and shares per user and container. */
export const EXEC_LANE = 'exec';

export interface ContainerCreatePayload {
  containerId: number;
}

/** Applies settings to a provisioned container and/or restarts it. */
export interface ContainerApplyPayload {
  containerId: number;
  reconfigure?: ReconfigureSpec;
  /**
   * The user's variables before this change. On a container whose image environment was never
   * recorded, what the node's environment holds beyond them is the image's.
   */
  previousEnvironment?: Record<string, string>;
  restart: boolean;
}

export interface ContainerJobDeps {
  db: Kysely<ManagerDB>;
  containers: ContainersRepository;
  services: ServicesRepository;
  nodes: NodesService;
  sites: SitesService;
  providers: ProviderRegistry;
  resources: ResourceRequestsRepository;
  dns: CrossSiteDns;
  volumes: VolumeWaiter;
  imageVolumes: ImageVolumes;
  notices: FailureNotices;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Job handlers that provision and change containers: the provider call plus the bookkeeping. */
export function registerContainerJobs(handlers: JobHandlers, deps: ContainerJobDeps) {
  handlers.register<ContainerCreatePayload>(CONTAINER_COMMANDS.create, {
    run: (payload, ctx) => provision(deps, payload.containerId, ctx),
    abandon: (payload, ctx) => discardUnfinished(deps, payload.containerId, ctx),
  });
  handlers.register<ContainerApplyPayload>(CONTAINER_COMMANDS.apply, {
    retryOnTakeover: true,
    run: (payload, ctx) => apply(deps, payload, ctx),
  });
}

async function provision(deps: ContainerJobDeps, id: number, ctx: JobContext) {
  const { containers, providers } = deps;
  const record = await containers.getById(id);
  if (!record) {
    await ctx.log('The container was deleted before it was provisioned; nothing to do.');
    return;
  }
  const node = await deps.nodes.connectionById(record.nodeId);
  const site = await deps.sites.get(record.siteId);
  let created: string;
  let imageEnvironment: Record<string, string> | undefined;
  try {
    await deps.imageVolumes.add(record, node, (line) => ctx.log(line));
    const resources = await deps.resources.effective(record.siteId, record.hostname, record.ownerUid);
    await containers.update(deps.db, id, { status: 'creating' });
    await ctx.log(
      `Creating ${record.hostname} on ${node.name}: ${resources.cpus} CPUs, ${resources.memory} MB memory, ` +
        `${resources.swap} MB swap, ${resources.rootfs} GB disk; MAC ${record.macAddress}, IPv4 ${record.ipv4Address}.`,
    );
    const mounts = await deps.volumes.ready(record, node, ctx);
    ({ containerId: created, imageEnvironment } = await providers.for(node).create(
      node,
      {
        hostname: record.hostname,
        image: record.template,
        macAddress: record.macAddress,
        entrypoint: record.entrypoint,
        environment: record.environmentVars,
        nvidia: record.nvidiaRequested,
        resources: toResources(resources),
        nameserver: site.gateway,
        searchDomain: site.internalDomain,
        mounts,
        ...(record.ipv4Address
          ? { address: { ipv4Address: record.ipv4Address, subnet: siteSubnet(site), gateway: site.gateway } }
          : {}),
      },
      { ...ctx, made: (instance) => recordMade(deps, id, instance) },
    ));
  } catch (error) {
    // The provider removes what a failed create made; the row stays so its owner sees `failed`.
    // (A volume the agent could not prepare fails the job before the provider is asked.)
    await retryWhileUnavailable(() => containers.update(deps.db, id, { status: 'failed' })).catch(
      () => undefined,
    );
    await notify(deps, record, ctx, 'create');
    throw error;
  } finally {
    providers.invalidate(node.id);
  }
  let recorded = false;
  try {
    // The instance exists now: a short database outage must not orphan it.
    recorded = await retryWhileUnavailable(() =>
      containers.update(deps.db, id, {
        container_id: created,
        made_instance: null,
        status: 'running',
        ...(imageEnvironment ? { image_environment: JSON.stringify(imageEnvironment) } : {}),
      }),
    );
  } finally {
    if (!recorded) {
      // Deleted while it was being created, or the write failed: never leave an untracked instance.
      await ctx.log(`Removing instance ${created}: its container record is gone or could not be written.`);
      await providers.for(node).delete(node, created, ctx);
    }
  }
  if (!recorded) return;
  await ctx.log(`Container ${record.hostname} is ${created} on ${node.name}.`);
  // The container exists and is recorded: what follows only warns, so the job's outcome stays true.
  try {
    const names = (await deps.services.forContainer(id)).flatMap((service) =>
      service.httpService ? [service.httpService] : [],
    );
    for (const warning of await deps.dns.ensure(site, names)) await ctx.log(`Warning: ${warning}`);
  } catch (error) {
    await ctx.log(`Warning: the DNS records of its HTTP services could not be checked (${describe(error)}).`);
  }
}

/** The owner hears of a job that failed, not of one that was stopped. */
async function notify(
  deps: ContainerJobDeps,
  record: ContainerRecord,
  ctx: JobContext,
  what: 'create' | 'apply',
) {
  // Cancelled, taken over or stopped with the worker: nothing the owner has to act on (yet).
  if (ctx.signal.aborted && !(ctx.signal.reason instanceof JobTimeoutError)) return;
  await deps.notices.jobFailed(record, ctx.job.id, what, ctx);
}

async function apply(deps: ContainerJobDeps, payload: ContainerApplyPayload, ctx: JobContext) {
  const record = await deps.containers.getById(payload.containerId);
  if (!record?.containerId) {
    await ctx.log('The container is not provisioned; nothing to apply.');
    return;
  }
  const node = await deps.nodes.connectionById(record.nodeId);
  const provider = deps.providers.for(node);
  let containerId = record.containerId;
  try {
    // The mounts were set at create; the instance keeps them. The volumes must still be there.
    await deps.volumes.ready(record, node, ctx);
    if (payload.reconfigure) {
      await ctx.log(`Applying the new configuration to ${record.hostname}.`);
      const imageEnvironment = await imageEnvironmentOf(deps, record, payload, node, provider, ctx);
      const spec = {
        ...payload.reconfigure,
        hostname: record.hostname,
        image: record.template,
        ...(imageEnvironment ? { imageEnvironment } : {}),
      };
      ({ containerId } = await provider.reconfigure(node, containerId, spec, ctx));
      if (containerId !== record.containerId) {
        await deps.containers.update(deps.db, record.id, { container_id: containerId });
      }
    }
    if (payload.restart) {
      await ctx.log(`Restarting ${record.hostname}.`);
      await provider.restart(node, containerId, ctx);
    }
  } catch (error) {
    await ctx.log(`Failed: ${describe(error)}`);
    await notify(deps, record, ctx, 'apply');
    throw error;
  } finally {
    deps.providers.invalidate(node.id);
  }
}

/**
 * The image environment a reconfigure puts the user's variables over, where the provider needs it: as
 * recorded at create or, for a container from before that (or imported), what its environment on the
 * node holds beyond the user's previous variables, recorded before anything changes (a retry of this
 * job, and every later change, use the record).
 */
async function imageEnvironmentOf(
  deps: ContainerJobDeps,
  record: ContainerRecord,
  payload: ContainerApplyPayload,
  node: NodeConnection,
  provider: Provider,
  ctx: JobContext,
): Promise<Record<string, string> | undefined> {
  if (record.imageEnvironment) return record.imageEnvironment;
  const previous = payload.previousEnvironment;
  if (!provider.environment || !payload.reconfigure?.environment || !previous) return undefined;
  const current = await provider.environment(node, record.containerId!, ctx.signal);
  const image = Object.fromEntries(Object.entries(current).filter(([key]) => !Object.hasOwn(previous, key)));
  await deps.containers.update(deps.db, record.id, { image_environment: JSON.stringify(image) });
  await ctx.log(
    `Recorded the image's own environment of ${record.hostname} from ${node.name}: ` +
      `${Object.keys(image).join(', ') || 'none'}.`,
  );
  return image;
}
