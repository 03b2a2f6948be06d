import { badRequest, type JobContext, type JobHandlers } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';
import { fail } from '../errors/catalogue.ts';
import { CONTAINER_COMMANDS } from './container-jobs.ts';
import type { ContainerDeps, ContainersService } from './containers-service.ts';

export const EXEC_TIMEOUT = { defaultSeconds: 60, maxSeconds: 3600 } as const;

export interface ExecInput {
  /** A program and its arguments, or one string run by `sh -c`. */
  command: string[] | string;
  timeoutSeconds?: number | undefined;
}

export interface ContainerExecPayload {
  containerId: number;
  command: string[];
  timeoutMs: number;
}

/** What an exec job answers (jobs.result), once the command has ended. */
export interface ContainerExecResult {
  exitCode: number;
}

type ExecDeps = Pick<ContainerDeps, 'repo' | 'nodes' | 'providers' | 'jobs'>;

/** POST …/containers/{id}/exec: the rights and the queue; the job runs the command. */
export class ContainerExec {
  constructor(
    private readonly deps: ExecDeps,
    private readonly containers: ContainersService,
  ) {}

  async request(principal: Principal, siteId: number, id: number, input: ExecInput) {
    const command = typeof input.command === 'string' ? ['sh', '-c', input.command] : input.command;
    if (!command[0]) throw badRequest('Name the program to run.', { command: 'must not start with ""' });
    const record = await this.containers.record(principal, siteId, id, 'manage');
    if (!record.containerId) {
      throw fail(
        'no_instance',
        `${record.hostname} has no instance to run a command in: it is being created or its create failed.`,
      );
    }
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
    const job = await this.deps.jobs.create(CONTAINER_COMMANDS.exec, principal.uidNumber, payload);
    return { containerId: record.id, jobId: job.id };
  }
}

/**
 * The exec job. Never run twice (a command is not known to be safe to repeat): a dead worker's exec
 * fails. A command that exits other than 0 fails the job, its exit code still in the result.
 */
export function registerContainerExec(handlers: JobHandlers, deps: ExecDeps) {
  handlers.register<ContainerExecPayload>(CONTAINER_COMMANDS.exec, {
    // The command's own timeout ends it first; this only bounds the calls around it.
    timeoutMs: EXEC_TIMEOUT.maxSeconds * 1000 + 60_000,
    run: (payload, ctx) => exec(deps, payload, ctx),
  });
}

async function exec(deps: ExecDeps, payload: ContainerExecPayload, ctx: JobContext) {
  const record = await deps.repo.getById(payload.containerId);
  if (!record?.containerId)
    throw new Error('The container has no instance (any more) to run the command in.');
  const node = await deps.nodes.connectionById(record.nodeId);
  const provider = deps.providers.for(node);
  if (!provider.exec) throw new Error(`Node ${node.name} cannot run commands in containers.`);
  const deadline = AbortSignal.timeout(payload.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, deadline]);
  const seconds = payload.timeoutMs / 1000;
  await ctx.log(`$ ${payload.command.map(quoted).join(' ')}`);
  let exitCode: number;
  try {
    ({ exitCode } = await provider.exec(node, record.containerId, payload, { ...ctx, signal }));
  } catch (error) {
    if (!deadline.aborted || ctx.signal.aborted) throw error;
    await ctx.log(`Timed out after ${seconds} s: the command was stopped.`);
    throw new Error(`The command ran longer than its timeout of ${seconds} s.`, { cause: error });
  }
  const result: ContainerExecResult = { exitCode };
  await deps.jobs.setResult(ctx.job.id, result);
  await ctx.log(`Exit code ${exitCode}.`);
  if (exitCode !== 0) throw new Error(`The command exited with code ${exitCode}.`);
}

/** An argument as a shell would need it to read it back the same. */
const quoted = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);
