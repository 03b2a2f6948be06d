import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, responses, RowId } from '../common/schemas.ts';
import { principalOf, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { errorsOf } from '../errors/catalogue.ts';
import { EXEC_TIMEOUT } from '../containers/container-operations.ts';

const ContainerParams = Type.Object({ siteId: RowId(), id: RowId() });
const Queued = Data(Type.Object({ containerId: Type.Integer(), jobId: Type.Integer() }));
const ExecBody = Type.Object({
  command: Type.Union(
    // The string first: the validator would otherwise make a lone string a list of one.
    [
      Type.String({ minLength: 1, maxLength: 65_536 }),
      Type.Array(Type.String({ maxLength: 65_536 }), { minItems: 1, maxItems: 1024 }),
    ],
    { description: 'the program and its arguments, or one string run by `sh -c`' },
  ),
  timeout: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: EXEC_TIMEOUT.maxSeconds,
      default: EXEC_TIMEOUT.defaultSeconds,
      description: 'seconds the command may run; then it is stopped and the job fails',
    }),
  ),
});

/** What the owner or an administrator does to a running container: start, stop, run a command. */
export async function containerOperationRoutes(api: Api, services: Services) {
  const { containerOperations } = services;
  const tags = ['Containers'];
  api.addHook('onRequest', requireUser);

  for (const action of ['start', 'stop'] as const) {
    api.post(
      `/sites/:siteId/containers/:id/${action}`,
      {
        config: { errors: errorsOf('forbidden', 'no_instance', 'conflict') },
        schema: {
          tags,
          summary:
            `Queues a container.${action} job (owner or administrator). ` +
            `A container already ${action === 'start' ? 'running' : 'stopped'} is no error: the job ` +
            'succeeds with nothing done. 409 conflict while a start, stop or restart of it is queued or running',
          params: ContainerParams,
          response: responses({ 202: Queued }),
        },
      },
      async (request, reply) => {
        const { siteId, id } = request.params;
        const data = await containerOperations.power(principalOf(request), siteId, id, action);
        return reply.code(202).send({ data });
      },
    );
  }

  api.post(
    '/sites/:siteId/containers/:id/exec',
    {
      config: { errors: errorsOf('forbidden', 'no_instance', 'exec_unsupported', 'too_many_execs') },
      schema: {
        tags,
        summary:
          'Queues a container.exec job that runs a command in the running container, without a terminal ' +
          '(owner or administrator; collaborators never)',
        description:
          'Its stdout and stderr lines are the job output (GET /jobs/{id}/stream); GET /jobs/{id} carries ' +
          '`result.exitCode` once it has ended. An exit code other than 0 fails the job, and so does the ' +
          'timeout. 409 exec_unsupported on Proxmox VE nodes, which have no such API. 429 too_many_execs ' +
          'when the container (JOB_EXEC_QUEUED_PER_CONTAINER) or the caller (JOB_EXEC_QUEUED_PER_USER) ' +
          'already has that many commands waiting or running; a user runs at most ' +
          'JOB_EXEC_RUNNING_PER_USER at once, one container JOB_EXEC_RUNNING_PER_CONTAINER.',
        params: ContainerParams,
        body: ExecBody,
        response: responses({ 202: Queued }),
      },
    },
    async (request, reply) => {
      const { siteId, id } = request.params;
      const { command, timeout } = request.body;
      const data = await containerOperations.exec(principalOf(request), siteId, id, {
        command,
        timeoutSeconds: timeout,
      });
      return reply.code(202).send({ data });
    },
  );
}
