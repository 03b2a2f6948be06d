import type { Router } from '../shared/router.ts';
import { randomHex } from '../shared/ids.ts';
import { FakeHttpError, jsonReply } from '../shared/types.ts';
import type { DockerRouteContext } from './routes.ts';
import { jsonBody } from './routes.ts';
import { muxFrame } from './format.ts';

interface ExecInstance {
  id: string;
  containerId: string;
  cmd: string[];
  running: boolean;
  exitCode: number | null;
}

type Output = { stream: 1 | 2; text: string } | { waitMs: number };

/**
 * `POST /containers/{id}/exec`, `POST /exec/{id}/start` (attached, without a terminal: the
 * multiplexed stream, then the connection closes) and `GET /exec/{id}/json`. The command is not run:
 * `echo …` (`>&2` for stderr), `sleep N` and `exit N` are simulated, alone or as `sh -c 'a; b'`.
 */
export function registerExecRoutes(router: Router, ctx: DockerRouteContext): void {
  const execs = new Map<string, ExecInstance>();
  const execOf = (id: string) => {
    const found = execs.get(id);
    if (!found) throw new FakeHttpError(404, `No such exec instance: ${id}`);
    return found;
  };
  const assertRunning = (containerId: string) => {
    if (ctx.containers.find(containerId).status === 'running') return;
    throw new FakeHttpError(
      ctx.podman ? 500 : 409,
      ctx.podman
        ? 'can only create exec sessions on running containers: container state improper'
        : `container ${containerId} is not running`,
    );
  };

  router.post('/containers/:id/exec', (req) => {
    const container = ctx.containers.find(req.params.id!);
    const body = jsonBody(req);
    const cmd = body.Cmd;
    if (!Array.isArray(cmd) || !cmd.length) {
      throw new FakeHttpError(
        ctx.podman ? 500 : 400,
        ctx.podman
          ? 'must provide a non-empty command to start an exec session'
          : 'No exec command specified',
      );
    }
    assertRunning(container.id);
    const id = randomHex(32);
    execs.set(id, { id, containerId: container.id, cmd: cmd.map(String), running: false, exitCode: null });
    return jsonReply(201, { Id: id });
  });

  router.post('/exec/:id/start', (req) => {
    const exec = execOf(req.params.id!);
    const body = jsonBody(req);
    if (body.Detach === true || body.Tty === true) {
      throw new FakeHttpError(501, 'this fake answers attached exec starts without a terminal only');
    }
    assertRunning(exec.containerId);
    exec.running = true;
    const { outputs, exitCode } = simulate(exec.cmd);
    async function* stream() {
      for (const output of outputs) {
        if ('waitMs' in output) await new Promise((resolve) => setTimeout(resolve, output.waitMs));
        else yield muxFrame(output.stream, `${output.text}\n`);
      }
      exec.running = false;
      exec.exitCode = exitCode;
    }
    return {
      status: 200,
      headers: { 'content-type': 'application/vnd.docker.multiplexed-stream' },
      body: stream(),
    };
  });

  router.get('/exec/:id/json', (req) => {
    const exec = execOf(req.params.id!);
    const [entrypoint, ...args] = exec.cmd;
    return jsonReply(200, {
      CanRemove: false,
      ContainerID: exec.containerId,
      DetachKeys: '',
      ExitCode: exec.exitCode,
      ID: exec.id,
      OpenStderr: true,
      OpenStdin: false,
      OpenStdout: true,
      ProcessConfig: { arguments: args, entrypoint, privileged: false, tty: false, user: '' },
      Running: exec.running,
      Pid: exec.running ? 4242 : 0,
    });
  });
}

/** What a command prints and waits for, and its exit code. */
function simulate(cmd: string[]): { outputs: Output[]; exitCode: number } {
  const [program, flag, script = ''] = cmd;
  const statements =
    (program === 'sh' || program === '/bin/sh') && flag === '-c'
      ? script.split(/[;\n]/).map((statement) => statement.trim())
      : [cmd.join(' ')];
  const outputs: Output[] = [];
  let exitCode = 0;
  for (const statement of statements.filter(Boolean)) {
    const echo = /^echo\s*(.*?)(\s*>&2)?$/.exec(statement);
    const sleep = /^sleep\s+(\d+(?:\.\d+)?)$/.exec(statement);
    const exit = /^exit\s*(\d*)$/.exec(statement);
    if (echo) {
      outputs.push({ stream: echo[2] ? 2 : 1, text: echo[1]!.replace(/^(['"])(.*)\1$/, '$2') });
      exitCode = 0;
    } else if (sleep) {
      outputs.push({ waitMs: Number(sleep[1]) * 1000 });
      exitCode = 0;
    } else if (exit) {
      return { outputs, exitCode: Number(exit[1] || exitCode) & 255 };
    } else {
      outputs.push({ stream: 2, text: `sh: 1: ${statement.split(/\s+/)[0]}: not found` });
      exitCode = 127;
    }
  }
  return { outputs, exitCode };
}
