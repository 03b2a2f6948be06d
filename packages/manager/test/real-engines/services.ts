import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { engineAnswers } from './engine-api.ts';

export const DOCKER_SOCKET = '/var/run/docker.sock';

/** A port free on 127.0.0.1 now (the global setup runs outside the workspace's "source" resolution). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/** Undoes one thing the setup did; run in reverse order at the end. */
export type Undo = () => Promise<void> | void;

const ENGINE_SCRIPT = resolve(import.meta.dirname, '../../../../scripts/ci/engine.sh');

async function until(what: string, check: () => Promise<boolean>, child?: ChildProcess, seconds = 60) {
  for (let waited = 0; waited < seconds * 10; waited++) {
    if (await check()) return;
    if (child && child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${what} did not answer within ${seconds} s`);
}

/** Ends a process this setup started, and waits for it. */
function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** A process whose output goes to a log file (named in errors), not to the test output. */
function startLogged(command: string, args: string[], log: string): ChildProcess {
  const out = openSync(log, 'w');
  return spawn(command, args, { stdio: ['ignore', out, out] });
}

/** The Docker Engine: the one answering, or dockerd started by scripts/ci/engine.sh (and stopped by it). */
export async function dockerEngine(undo: Undo[]): Promise<void> {
  if (await engineAnswers(DOCKER_SOCKET)) return;
  execFileSync('bash', [ENGINE_SCRIPT, 'start'], { stdio: 'inherit' });
  undo.push(() => void execFileSync('bash', [ENGINE_SCRIPT, 'stop'], { stdio: 'inherit' }));
}

/**
 * Podman's API service on a socket of its own, started after the registry is written into
 * registries.conf.d: a running service reads that configuration once, at its first pull. This sandbox
 * cannot raise resource limits, so containers get lowered default ulimits, and runc (Debian installs no
 * crun): /etc/containers/containers.conf.
 */
export async function podmanService(undo: Undo[]): Promise<string> {
  const conf = '/etc/containers/containers.conf';
  if (!existsSync(conf)) {
    writeFileSync(
      conf,
      '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]\n\n[engine]\nruntime = "runc"\n',
    );
  }
  const socket = `/run/fleet-test-podman-${process.pid}.sock`;
  const log = `/tmp/fleet-test-podman-${process.pid}.log`;
  const child = startLogged('podman', ['system', 'service', '--time=0', `unix://${socket}`], log);
  undo.push(() => rmSync(log, { force: true }));
  undo.push(() => stopProcess(child));
  await until(`podman system service (log: ${log})`, () => engineAnswers(socket), child);
  return socket;
}

/**
 * Debian's docker-registry on 127.0.0.1 (a free port, storage in a temporary folder). Docker treats
 * registries on 127.0.0.0/8 as insecure (plain HTTP) by itself; Podman is told in registries.conf.d.
 */
export async function localRegistry(undo: Undo[]): Promise<string> {
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'fleet-test-registry-'));
  undo.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'config.yml'),
    `version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: ${dir}/data\nhttp:\n  addr: ${host}\n`,
  );
  const child = startLogged('docker-registry', ['serve', join(dir, 'config.yml')], join(dir, 'registry.log'));
  undo.push(() => stopProcess(child));
  const podmanConf = `/etc/containers/registries.conf.d/fleet-test-${port}.conf`;
  writeFileSync(podmanConf, `[[registry]]\nlocation = "${host}"\ninsecure = true\n`);
  undo.push(() => rmSync(podmanConf, { force: true }));
  await until(
    'docker-registry',
    () =>
      fetch(`http://${host}/v2/`).then(
        (reply) => reply.ok,
        () => false,
      ),
    child,
  );
  return host;
}
