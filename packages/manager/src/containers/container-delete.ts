import type { JobContext, JobHandlers } from '@app/server-kit';
import type { CarriedAudit } from '../audit/audit-log.ts';
import { NODE_FAILURE_FOR_USERS } from '../nodes/node-visibility.ts';
import type { ContainerRecord } from './containers-repository.ts';
import type { ContainerDeps } from './containers-service.ts';
import type { StatusResolver } from './container-status.ts';
import { CONTAINER_COMMANDS } from './container-jobs.ts';

/** The provider's delete gets 120 s; the rest is the node check, the rows and the DNS records. */
export const DELETE_TIMEOUT_MS = 150_000;

export interface ContainerDeletePayload {
  containerId: number;
  /** The entry of the request that queued the delete, written with the record's removal. */
  audit?: CarriedAudit | undefined;
}

export type DeleteRefusal = 'conflict' | 'hostname_mismatch' | 'node_unreachable' | 'provider_error';

/**
 * What a delete job answers (jobs.result). A refusal carries the sentence every caller may read and,
 * for a node's own words, `detail`, which only administrators are shown.
 */
export type ContainerDeleteResult =
  | { deleted: true; dnsWarnings: string[]; keptVolumes: { name: string; hostPath: string }[] }
  | { deleted: false; code: DeleteRefusal; message: string; detail?: string };

type DeleteDeps = Pick<
  ContainerDeps,
  | 'db'
  | 'repo'
  | 'services'
  | 'sites'
  | 'nodes'
  | 'jobs'
  | 'providers'
  | 'dns'
  | 'keptVolumes'
  | 'audit'
  | 'log'
>;

/** Why a container whose create is running cannot be deleted now. */
export const beingCreated = (record: ContainerRecord) =>
  `The container is being created (job ${record.creationJobId}); wait for it or cancel the job first.`;

class Refused extends Error {
  constructor(readonly result: Extract<ContainerDeleteResult, { deleted: false }>) {
    super(result.message);
  }
}

/**
 * The delete job: the instance on its node first, then the record (its volume folders kept), then the
 * DNS records of its HTTP services. Safe to run again after its worker died: a gone instance or record
 * is simply skipped.
 */
export function registerContainerDelete(handlers: JobHandlers, deps: DeleteDeps, status: StatusResolver) {
  handlers.register<ContainerDeletePayload>(CONTAINER_COMMANDS.delete, {
    timeoutMs: DELETE_TIMEOUT_MS,
    retryOnTakeover: true,
    run: async (payload, ctx) => {
      let result: ContainerDeleteResult;
      try {
        result = await deleteContainer(deps, status, payload, ctx);
      } catch (error) {
        if (error instanceof Refused) await deps.jobs.setResult(ctx.job.id, error.result);
        throw error;
      }
      await deps.jobs.setResult(ctx.job.id, result);
    },
  });
}

async function deleteContainer(
  deps: DeleteDeps,
  status: StatusResolver,
  { containerId, audit }: ContainerDeletePayload,
  ctx: JobContext,
): Promise<ContainerDeleteResult> {
  const record = await deps.repo.getById(containerId);
  if (!record) {
    await ctx.log('The container record is already gone; nothing to delete.');
    return { deleted: true, dnsWarnings: [], keptVolumes: [] };
  }
  if (record.creationJobId && record.creationJobStatus === 'pending') {
    // Not started yet: cancelled, it will never create anything.
    await deps.jobs.cancel(record.creationJobId);
  } else if (record.creationJobStatus === 'running') {
    throw new Refused({ deleted: false, code: 'conflict', message: beingCreated(record) });
  }
  if (record.containerId) await removeInstance(deps, status, record, ctx);
  const site = await deps.sites.get(record.siteId);
  const services = await deps.services.forContainer(record.id);
  // The volume folders stay on the node, listed as kept until an administrator has them removed.
  const keptVolumes = await deps.db.transaction().execute(async (trx) => {
    const volumes = await deps.keptVolumes.keep(trx, record);
    await deps.repo.delete(record.id, trx);
    if (audit) await deps.audit.withinJob(trx, audit);
    return volumes;
  });
  await ctx.log(`Deleted the record of ${record.hostname}.`);
  const dnsWarnings = await deps.dns.remove(
    site,
    services.flatMap((service) => (service.httpService ? [service.httpService] : [])),
  );
  for (const warning of dnsWarnings) await ctx.log(`Warning: ${warning}`);
  return { deleted: true, dnsWarnings, keptVolumes };
}

/** Deletes the provider instance; the record is only deleted once the instance is gone. */
async function removeInstance(
  deps: DeleteDeps,
  status: StatusResolver,
  record: ContainerRecord,
  ctx: JobContext,
) {
  /** What the node said goes to administrators and the server log; the job output gets the sentence. */
  const nodeFailure = (code: 'node_unreachable' | 'provider_error', detail: string) => {
    deps.log.warn({ node: record.nodeName, container: record.id, detail }, 'instance not deleted');
    const tail = 'The container was not deleted.';
    return new Refused({
      deleted: false,
      code,
      message: `${NODE_FAILURE_FOR_USERS} ${tail}`,
      detail: `${detail} ${tail}`,
    });
  };
  const live = await status.instanceOf(record);
  if (!live.reachable) {
    throw nodeFailure('node_unreachable', `Node ${record.nodeName} cannot be reached (${live.reason}).`);
  }
  if (!live.instance) {
    await ctx.log(`Instance ${record.containerId} is no longer on ${record.nodeName}.`);
    return;
  }
  if (live.instance.hostname.toLowerCase() !== record.hostname) {
    throw new Refused({
      deleted: false,
      code: 'hostname_mismatch',
      message: `The instance ${record.containerId} on ${record.nodeName} is named "${live.instance.hostname}", not "${record.hostname}"; deletion aborted.`,
    });
  }
  const node = await deps.nodes.connectionById(record.nodeId);
  await ctx.log(`Deleting instance ${record.containerId} of ${record.hostname} on ${node.name}.`);
  try {
    await deps.providers.for(node).delete(node, record.containerId!, ctx);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    throw nodeFailure(
      'provider_error',
      `Node ${record.nodeName} could not delete instance ${record.containerId}: ${error instanceof Error ? error.message : String(error)}.`,
    );
  } finally {
    deps.providers.invalidate(node.id);
  }
}
