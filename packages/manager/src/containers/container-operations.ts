import { badRequest, uniqueViolationColumns } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';
import { fail } from '../errors/catalogue.ts';
import { withInstance } from './container-access.ts';
import { CONTAINER_COMMANDS, EXEC_LANE } from './container-jobs.ts';
import type { ContainerPowerPayload } from './container-power.ts';
import type { ContainerExecPayload } from './container-exec.ts';
import type { ContainerDeps, ContainersService } from './containers-service.ts';

export type PowerAction = 'start' | 'stop';

export const EXEC_TIMEOUT = { defaultSeconds: 60, maxSeconds: 3600 } as const;

export interface ExecInput {
  /** A program and its arguments, or one string run by `sh -c`. */
  command: string[] | string;
  timeoutSeconds?: number | undefined;
}

export type OperationDeps = Pick<ContainerDeps, 'repo' | 'nodes' | 'providers' | 'jobs' | 'audit'>;

/** The jobs that change what runs on the node: one of them at a time per container. */
const EXCLUSIVE = [CONTAINER_COMMANDS.start, CONTAINER_COMMANDS.stop, CONTAINER_COMMANDS.apply];

/**
 * POST …/containers/{id}/start, …/stop and …/exec (owner or administrator): the rights, the checks and
 * the queue; the jobs do the work (container-power.ts, container-exec.ts).
 */
export class ContainerOperations {
  constructor(
    private readonly deps: OperationDeps,
    private readonly containers: ContainersService,
  ) {}

  async power(principal: Principal, siteId: number, id: number, action: PowerAction) {
    const record = withInstance(
      await this.containers.record(principal, siteId, id, 'manage'),
      `to ${action}`,
    );
    const busy = () =>
      fail('conflict', `${record.hostname} is being started, stopped or changed: wait for that job to end.`);
    if (await this.deps.jobs.activeFor(EXCLUSIVE, record.id)) throw busy();
    const payload: ContainerPowerPayload = { containerId: record.id };
    try {
      return await this.queue(CONTAINER_COMMANDS[action], principal, payload);
    } catch (error) {
      // Another request queued a start or stop between the check and the insert.
      if (uniqueViolationColumns(error)?.includes('container_id')) throw busy();
      throw error;
    }
  }

  async exec(principal: Principal, siteId: number, id: number, input: ExecInput) {
    const command = typeof input.command === 'string' ? ['sh', '-c', input.command] : input.command;
    if (!command[0]) throw badRequest('Name the program to run.', { command: 'must not start with ""' });
    const record = withInstance(
      await this.containers.record(principal, siteId, id, 'manage'),
      'to run a command in',
    );
    const node = await this.deps.nodes.connectionById(record.nodeId);
    if (!this.deps.providers.for(node).exec) {
      throw fail(
        'exec_unsupported',
        `Node ${node.name} (Proxmox VE) has no API to run a command in a container: ` +
          `run it over SSH to ${record.hostname}, or from its console in Proxmox VE.`,
      );
    }
    const payload: ContainerExecPayload = {
      containerId: record.id,
      command,
      timeoutMs: (input.timeoutSeconds ?? EXEC_TIMEOUT.defaultSeconds) * 1000,
    };
    const job = await this.deps.jobs.queueInLane(
      EXEC_LANE,
      CONTAINER_COMMANDS.exec,
      principal.uidNumber,
      payload,
      (trx) => this.deps.audit.within(trx),
    );
    if ('full' in job) {
      const who = job.full === 'user' ? 'You have' : `${record.hostname} has`;
      throw fail(
        'too_many_execs',
        `${who} ${job.held} commands waiting or running, the most one ${job.full} may have: ` +
          'wait for one to end, or cancel one.',
      );
    }
    return { containerId: record.id, jobId: job.id };
  }

  /** Queues the container's job with the request's audit entry in the same transaction. */
  private async queue(command: string, principal: Principal, payload: { containerId: number }) {
    const job = await this.deps.jobs.create(command, principal.uidNumber, payload, (trx) =>
      this.deps.audit.within(trx),
    );
    return { containerId: payload.containerId, jobId: job.id };
  }
}
