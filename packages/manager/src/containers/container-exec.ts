import type { JobContext, JobHandlers } from '@app/server-kit';
import { CONTAINER_COMMANDS } from './container-jobs.ts';
import { EXEC_TIMEOUT, type OperationDeps } from './container-operations.ts';

export interface ContainerExecPayload {
  containerId: number;
  command: string[];
  timeoutMs: number;
}

/** What an exec job answers (jobs.result), once the command has ended. */
export interface ContainerExecResult {
  exitCode: number;
}

/**
 * The exec job. Never run twice (a command is not known to be safe to repeat): a dead worker's exec
 * fails. A command that exits other than 0 fails the job, its exit code still in the result.
 */
export function registerContainerExec(handlers: JobHandlers, deps: OperationDeps) {
  handlers.register<ContainerExecPayload>(CONTAINER_COMMANDS.exec, {
    // The command's own timeout ends it first; this only bounds the calls around it.
    timeoutMs: EXEC_TIMEOUT.maxSeconds * 1000 + 60_000,
    run: (payload, ctx) => exec(deps, payload, ctx),
  });
}

async function exec(deps: OperationDeps, payload: ContainerExecPayload, ctx: JobContext) {
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
