import { hostname } from 'node:os';
import type { Router } from '../shared/router.ts';
import { parseJsonBody } from '../shared/ids.ts';
import { emptyReply, FakeHttpError, jsonReply } from '../shared/types.ts';
import type { FakeRequest } from '../shared/types.ts';
import type { ContainerStore } from './containers.ts';
import { compareVersions, goArch, kernelFlavour, muxFrame, queryBool } from './format.ts';
import { inspectImage } from './images.ts';
import { HOST_MEMORY } from './stats-routes.ts';
import type { ImageStore } from './images.ts';
import { inspectContainer, listContainer, matchesFilters, parseFilters } from './views.ts';

export interface DockerRouteContext {
  images: ImageStore;
  containers: ContainerStore;
  engineVersion: string;
  apiVersion: string;
  minApiVersion: string;
  podman: boolean;
  /** The host's `uname -m`. */
  machine: string;
  /** API version of this request (from its `/v1.xx` prefix, or the daemon's). */
  versionOf: (req: FakeRequest) => string;
}

/** The body as JSON; malformed JSON is refused with `malformedStatus` (500 on Podman and Docker < 23). */
export function jsonBody(req: FakeRequest, malformedStatus = 400): Record<string, unknown> {
  if (!req.body.length) return {};
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  if (type !== 'application/json') {
    throw new FakeHttpError(400, `unsupported Content-Type header (${type}): must be 'application/json'`);
  }
  const parsed = parseJsonBody(req.body);
  if (!parsed || typeof parsed.value !== 'object' || parsed.value === null) {
    throw new FakeHttpError(malformedStatus, 'invalid JSON: invalid character in request body');
  }
  return parsed.value as Record<string, unknown>;
}

/** `/_ping`, `/version`, `/info`. */
export function registerSystemRoutes(router: Router, ctx: DockerRouteContext): void {
  const ping = (req: FakeRequest) => ({
    status: 200,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-cache, no-store, must-revalidate',
      pragma: 'no-cache',
      'builder-version': ctx.podman ? '1' : '2',
      swarm: 'inactive',
    },
    body: req.method === 'HEAD' ? '' : 'OK',
  });
  router.get('/_ping', ping).add('HEAD', '/_ping', ping);
  if (ctx.podman) router.get('/libpod/_ping', ping).add('HEAD', '/libpod/_ping', ping);

  const arch = goArch(ctx.machine);
  const kernel = `6.1.0-28-${kernelFlavour(ctx.machine)}`;
  router.get('/version', () => {
    const engineName = ctx.podman ? 'Podman Engine' : 'Engine';
    return jsonReply(200, {
      Platform: { Name: ctx.podman ? `linux/${arch}/debian-12` : 'Docker Engine - Community' },
      Components: [
        {
          Name: engineName,
          Version: ctx.engineVersion,
          Details: {
            ApiVersion: ctx.apiVersion,
            MinAPIVersion: ctx.minApiVersion,
            Os: 'linux',
            Arch: arch,
          },
        },
        ...(ctx.podman
          ? []
          : [
              {
                Name: 'containerd',
                Version: '1.7.25',
                Details: { GitCommit: 'bcc810d6b9066471b0b6fa75f557a15a1cbf31bb' },
              },
              { Name: 'runc', Version: '1.2.4', Details: { GitCommit: 'v1.2.4-0-g6c52b3f' } },
            ]),
      ],
      Version: ctx.engineVersion,
      ApiVersion: ctx.apiVersion,
      MinAPIVersion: ctx.minApiVersion,
      GitCommit: '4c9b3b0',
      GoVersion: 'go1.22.11',
      Os: 'linux',
      Arch: arch,
      KernelVersion: kernel,
      BuildTime: '2025-01-21T21:48:38.000000000+00:00',
    });
  });

  router.get('/info', () => {
    const all = [...ctx.containers.containers.values()];
    const count = (s: string) => all.filter((c) => c.status === s).length;
    return jsonReply(200, {
      ID: 'b7c1e7a4-5d3f-4c2e-9a1b-0f6e2d8c4a91',
      Name: hostname(),
      ServerVersion: ctx.engineVersion,
      Containers: all.length,
      ContainersRunning: count('running'),
      ContainersPaused: count('paused'),
      ContainersStopped: all.length - count('running') - count('paused'),
      Images: ctx.images.local.size,
      Driver: 'overlay2',
      DockerRootDir: '/var/lib/docker',
      NCPU: ctx.containers.options.cpus,
      MemTotal: HOST_MEMORY,
      OperatingSystem: 'Debian GNU/Linux 12 (bookworm)',
      OSType: 'linux',
      OSVersion: '12',
      // Docker reports the kernel's name; Podman's compatible API reports Go's.
      Architecture: ctx.podman ? arch : ctx.machine,
      KernelVersion: kernel,
      CgroupDriver: 'systemd',
      CgroupVersion: '2',
      Runtimes: {
        runc: { path: 'runc' },
        ...(ctx.containers.options.gpu ? { nvidia: { path: 'nvidia-container-runtime' } } : {}),
      },
      DefaultRuntime: 'runc',
      Swarm: {
        NodeID: '',
        NodeAddr: '',
        LocalNodeState: 'inactive',
        ControlAvailable: false,
        Error: '',
        RemoteManagers: null,
      },
      Labels: [],
      Warnings: [],
      CDISpecDirs: ['/etc/cdi', '/var/run/cdi'],
      SystemTime: new Date().toISOString(),
      LoggingDriver: 'json-file',
      SecurityOptions: ['name=seccomp,profile=builtin', 'name=cgroupns'],
      Plugins: {
        Volume: ['local'],
        Network: ['bridge', 'host', 'ipvlan', 'macvlan', 'null', 'overlay'],
        Log: ['json-file', 'local'],
      },
      RegistryConfig: {
        IndexConfigs: { 'docker.io': { Name: 'docker.io', Mirrors: [], Secure: true, Official: true } },
      },
    });
  });
}

/** `/images/create`, `/images/{name}/json`. */
export function registerImageRoutes(router: Router, ctx: DockerRouteContext): void {
  router.post('/images/create', (req) => {
    const fromImage = req.query.get('fromImage');
    if (!fromImage) throw new FakeHttpError(400, 'invalid reference format');
    const json = { 'content-type': 'application/json' };
    try {
      const stream = ctx.images.pull(fromImage, req.query.get('tag') || undefined);
      return { status: 200, headers: json, body: stream };
    } catch (error) {
      // Podman answers 200 before it has looked, and says in the stream that there is no such image.
      if (!(ctx.podman && error instanceof FakeHttpError && error.status === 404)) throw error;
      const message = error.message;
      return {
        status: 200,
        headers: json,
        body: `${JSON.stringify({ error: message, errorDetail: { message } })}\n`,
      };
    }
  });
  router.get('/images/:name*/json', (req) => jsonReply(200, inspectImage(ctx.images.get(req.params.name!))));
}

/** Container lifecycle, inspect, list and logs. */
export function registerContainerRoutes(router: Router, ctx: DockerRouteContext): void {
  const store = ctx.containers;
  router.post('/containers/create', (req) => {
    const version = ctx.versionOf(req);
    const malformed = ctx.podman || compareVersions(version, '1.42') < 0 ? 500 : 400;
    const c = store.create(req.query.get('name'), jsonBody(req, malformed), version);
    return jsonReply(201, { Id: c.id, Warnings: [] });
  });
  if (!ctx.podman) {
    router.post('/containers/:id/update', (req) => {
      store.update(store.find(req.params.id!), jsonBody(req));
      return jsonReply(200, { Warnings: null });
    });
  }
  router.get('/containers/json', (req) => {
    const filters = parseFilters(req.query.get('filters'));
    const all = queryBool(req.query.get('all'));
    let rows = [...store.containers.values()]
      .filter((c) => all || filters.has('status') || c.status === 'running')
      .filter((c) => matchesFilters(c, filters))
      .sort((a, b) => b.createdMs - a.createdMs);
    const limit = Number(req.query.get('limit') ?? -1);
    if (limit > 0) rows = rows.slice(0, limit);
    return jsonReply(200, rows.map(listContainer));
  });
  router.get('/containers/:id/json', (req) => jsonReply(200, inspectContainer(store.find(req.params.id!))));
  router.post('/containers/:id/start', (req) => {
    const c = store.find(req.params.id!);
    if (req.body.length > 7)
      throw new FakeHttpError(
        400,
        'starting container with non-empty request body was deprecated since API v1.22 and removed in v1.24',
      );
    return emptyReply(store.start(c) === 'already' ? 304 : 204);
  });
  router.post('/containers/:id/stop', (req) =>
    emptyReply(store.stop(store.find(req.params.id!)) === 'already' ? 304 : 204),
  );
  router.post('/containers/:id/restart', (req) => {
    const c = store.find(req.params.id!);
    store.stop(c);
    store.start(c);
    return emptyReply(204);
  });
  router.post('/containers/:id/rename', (req) => {
    const name = req.query.get('name');
    if (!name) throw new FakeHttpError(400, 'Neither old nor new names may be empty');
    store.rename(store.find(req.params.id!), name);
    return emptyReply(204);
  });
  router.delete('/containers/:id', (req) => {
    store.remove(store.find(req.params.id!), queryBool(req.query.get('force')));
    return emptyReply(204);
  });
  router.get('/containers/:id/logs', (req) => {
    const c = store.find(req.params.id!);
    const stdout = queryBool(req.query.get('stdout'));
    const stderr = queryBool(req.query.get('stderr'));
    if (!stdout && !stderr)
      throw new FakeHttpError(400, 'Bad parameters: you must choose at least one stream');
    const timestamps = queryBool(req.query.get('timestamps'));
    let lines = c.logs.filter((l) => (l.stream === 1 ? stdout : stderr));
    const tail = req.query.get('tail');
    if (tail && tail !== 'all' && Number(tail) >= 0)
      lines = lines.slice(Math.max(lines.length - Number(tail), 0));
    const text = (l: (typeof lines)[number]) => `${timestamps ? `${l.time} ` : ''}${l.text}`;
    const tty = c.config.Tty === true;
    const body = Buffer.concat(lines.map((l) => (tty ? Buffer.from(text(l)) : muxFrame(l.stream, text(l)))));
    const type = tty ? 'application/vnd.docker.raw-stream' : 'application/vnd.docker.multiplexed-stream';
    return { status: 200, headers: { 'content-type': type }, body };
  });
}
