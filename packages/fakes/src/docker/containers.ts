import { randomHex } from '../shared/ids.ts';
import { FakeHttpError } from '../shared/types.ts';
import { compareVersions } from './format.ts';
import type { DockerImage, ImageConfig, ImageStore } from './images.ts';

export type ContainerStatus =
  'created' | 'running' | 'paused' | 'restarting' | 'removing' | 'exited' | 'dead';

export interface EndpointState {
  IPAMConfig: { IPv4Address?: string; IPv6Address?: string } | null;
  Aliases: string[] | null;
  MacAddress: string;
  IPAddress: string;
  Gateway: string;
  IPPrefixLen: number;
  NetworkID: string;
  EndpointID: string;
}

export interface DockerContainer {
  id: string;
  name: string;
  created: string;
  createdMs: number;
  imageRef: string;
  image: DockerImage;
  config: Record<string, unknown> & ImageConfig;
  hostConfig: Record<string, unknown>;
  networks: Record<string, EndpointState>;
  status: ContainerStatus;
  pid: number;
  exitCode: number;
  startedAt: string;
  finishedAt: string;
  startedMs: number;
  finishedMs: number;
  restartCount: number;
  logs: { stream: 1 | 2; text: string; time: string }[];
}

export interface DockerNetwork {
  name: string;
  id: string;
  subnet: string;
  gateway: string;
  userDefined: boolean;
  next: number;
}

const ZERO_TIME = '0001-01-01T00:00:00Z';

/** Containers and networks of the engine, with the create/start/stop/remove rules. */
export class ContainerStore {
  readonly containers = new Map<string, DockerContainer>();
  readonly networks = new Map<string, DockerNetwork>();
  private nextPid = 4242;

  constructor(
    private readonly images: ImageStore,
    readonly options: { gpu: boolean; defaultNetwork: string; podman: boolean },
  ) {
    this.addNetwork(options.defaultNetwork, options.podman ? '10.88.0.0/16' : '172.17.0.0/16', false);
  }

  addNetwork(name: string, subnet: string, userDefined = true): void {
    const base = subnet.split('/')[0]!.split('.').slice(0, 3).join('.');
    this.networks.set(name, { name, id: randomHex(32), subnet, gateway: `${base}.1`, userDefined, next: 2 });
  }

  /** By full id, unique id prefix, or name (with or without `/`). */
  find(ref: string): DockerContainer {
    const name = ref.startsWith('/') ? ref.slice(1) : ref;
    for (const c of this.containers.values()) if (c.id === ref || c.name === name) return c;
    const byPrefix = [...this.containers.values()].filter((c) => c.id.startsWith(ref));
    if (byPrefix.length === 1) return byPrefix[0]!;
    throw new FakeHttpError(
      404,
      this.options.podman
        ? `no container with name or ID "${ref}" found: no such container`
        : `No such container: ${ref}`,
    );
  }

  create(name: string | null, body: Record<string, unknown>, apiVersion: string): DockerContainer {
    if (name !== null && !/^\/?[a-zA-Z0-9][a-zA-Z0-9_.-]+$/.test(name)) {
      throw new FakeHttpError(
        400,
        `Invalid container name (${name}), only [a-zA-Z0-9][a-zA-Z0-9_.-] are allowed`,
      );
    }
    const cleanName = name?.replace(/^\//, '');
    const taken = cleanName ? [...this.containers.values()].find((c) => c.name === cleanName) : undefined;
    if (taken) {
      throw new FakeHttpError(
        409,
        this.options.podman
          ? `creating container storage: the container name "${cleanName}" is already in use by ${taken.id}. You have to remove that container to be able to reuse that name: that name is already in use`
          : `Conflict. The container name "/${cleanName}" is already in use by container "${taken.id}". You have to remove (or rename) that container to be able to reuse that name.`,
      );
    }
    if (typeof body.Image !== 'string' || !body.Image)
      throw new FakeHttpError(400, 'config cannot be empty in order to create a container');
    const image = this.images.get(body.Image);
    const hostConfig = {
      NetworkMode: 'bridge',
      RestartPolicy: { Name: 'no', MaximumRetryCount: 0 },
      ...(body.HostConfig as object),
    };
    validateRestartPolicy(hostConfig.RestartPolicy as { Name?: string; MaximumRetryCount?: number });
    const networks = this.planNetworks(body, hostConfig, apiVersion);
    const id = randomHex(32);
    const imageConfig = image.config;
    const labels = { ...imageConfig.Labels, ...(body.Labels as Record<string, string> | undefined) };
    const env = mergeEnv(imageConfig.Env ?? [], (body.Env as string[] | undefined) ?? []);
    const asArray = (v: unknown) => (typeof v === 'string' ? [v] : (v as string[] | null | undefined));
    const entrypoint = asArray(body.Entrypoint) ?? imageConfig.Entrypoint ?? null;
    const cmd = asArray(body.Cmd) ?? (body.Entrypoint ? null : (imageConfig.Cmd ?? null));
    const created = new Date();
    const container: DockerContainer = {
      id,
      name: cleanName ?? generatedName(),
      created: created.toISOString(),
      createdMs: created.getTime(),
      imageRef: body.Image,
      image,
      config: {
        Hostname: (body.Hostname as string) || id.slice(0, 12),
        Domainname: '',
        User: (body.User as string) ?? imageConfig.User ?? '',
        AttachStdin: false,
        AttachStdout: true,
        AttachStderr: true,
        ExposedPorts: {
          ...imageConfig.ExposedPorts,
          ...(body.ExposedPorts as Record<string, object> | undefined),
        },
        Tty: body.Tty === true,
        OpenStdin: body.OpenStdin === true,
        StdinOnce: false,
        Env: env,
        Cmd: cmd,
        Image: body.Image,
        Volumes: (body.Volumes as Record<string, object> | undefined) ?? null,
        WorkingDir: (body.WorkingDir as string) ?? imageConfig.WorkingDir ?? '',
        Entrypoint: entrypoint,
        OnBuild: null,
        Labels: labels,
      },
      hostConfig,
      networks,
      status: 'created',
      pid: 0,
      exitCode: 0,
      startedAt: ZERO_TIME,
      finishedAt: ZERO_TIME,
      startedMs: 0,
      finishedMs: 0,
      restartCount: 0,
      logs: [],
    };
    this.containers.set(id, container);
    return container;
  }

  start(c: DockerContainer): 'started' | 'already' {
    if (c.status === 'running') return 'already';
    if (c.status === 'paused')
      throw new FakeHttpError(409, 'cannot start a paused container, try unpause instead');
    const requests =
      (c.hostConfig.DeviceRequests as { Driver?: string; Capabilities?: string[][] }[] | null) ?? [];
    for (const request of requests) {
      if (
        !this.options.gpu &&
        (request.Driver === 'nvidia' || request.Capabilities?.flat().includes('gpu'))
      ) {
        const caps = JSON.stringify(request.Capabilities ?? [])
          .replace(/"/g, '')
          .replace(/,/g, ' ');
        throw new FakeHttpError(
          500,
          `could not select device driver "${request.Driver ?? ''}" with capabilities: ${caps}`,
        );
      }
    }
    this.checkPorts(c);
    for (const [name, endpoint] of Object.entries(c.networks)) {
      const network = this.networks.get(name);
      if (!network || name === 'host' || name === 'none') continue;
      const base = network.subnet.split('/')[0]!.split('.').slice(0, 3).join('.');
      endpoint.IPAddress = endpoint.IPAMConfig?.IPv4Address || `${base}.${network.next++}`;
      endpoint.Gateway = network.gateway;
      endpoint.IPPrefixLen = Number(network.subnet.split('/')[1]);
      endpoint.MacAddress ||= macFor(endpoint.IPAddress);
      endpoint.EndpointID = randomHex(32);
    }
    c.status = 'running';
    c.pid = this.nextPid++;
    c.startedAt = new Date().toISOString();
    c.startedMs = Date.now();
    return 'started';
  }

  stop(c: DockerContainer, exitCode = 0): 'stopped' | 'already' {
    if (c.status !== 'running' && c.status !== 'paused') return 'already';
    c.status = 'exited';
    c.pid = 0;
    c.exitCode = exitCode;
    c.finishedAt = new Date().toISOString();
    c.finishedMs = Date.now();
    for (const endpoint of Object.values(c.networks)) {
      endpoint.IPAddress = '';
      endpoint.Gateway = '';
      endpoint.IPPrefixLen = 0;
      endpoint.EndpointID = '';
    }
    return 'stopped';
  }

  remove(c: DockerContainer, force: boolean): void {
    if (c.status === 'running' && !force) {
      throw this.options.podman
        ? new FakeHttpError(
            500,
            `cannot remove container ${c.id} as it is running - running or paused containers cannot be removed without force: container state improper`,
          )
        : new FakeHttpError(
            409,
            `cannot remove container "/${c.name}": container is running: stop the container before removing or force remove`,
          );
    }
    this.stop(c, 137);
    this.containers.delete(c.id);
  }

  private planNetworks(
    body: Record<string, unknown>,
    hostConfig: Record<string, unknown>,
    apiVersion: string,
  ) {
    const mode = String(hostConfig.NetworkMode || 'default');
    const networkName = mode === 'default' || mode === 'bridge' ? this.options.defaultNetwork : mode;
    const endpoints = ((
      body.NetworkingConfig as { EndpointsConfig?: Record<string, Record<string, unknown>> } | undefined
    )?.EndpointsConfig ?? {}) as Record<
      string,
      { IPAMConfig?: { IPv4Address?: string }; MacAddress?: string; Aliases?: string[] }
    >;
    const names = Object.keys(endpoints);
    const old = compareVersions(apiVersion, '1.44') < 0;
    if (names.length > 1 && old) {
      throw new FakeHttpError(
        400,
        `Container cannot be created with multiple network endpoints: ${names.join(', ')}`,
      );
    }
    if (names.length === 0) names.push(networkName);
    const result: Record<string, EndpointState> = {};
    for (const name of names) {
      const network = this.networks.get(name);
      if (!network && !['host', 'none'].includes(name))
        throw new FakeHttpError(404, `network ${name} not found`);
      const settings = endpoints[name] ?? {};
      const ip = settings.IPAMConfig?.IPv4Address;
      if (ip && !/^\d{1,3}(\.\d{1,3}){3}$/.test(ip))
        throw new FakeHttpError(400, `invalid IPv4 address: ${ip}`);
      if (ip && network && !network.userDefined && !this.options.podman) {
        throw new FakeHttpError(
          400,
          'invalid endpoint settings:\nuser-specified IP address is supported on user-defined networks only',
        );
      }
      const topMac = typeof body.MacAddress === 'string' ? body.MacAddress : '';
      const endpointMac = old && !this.options.podman ? '' : (settings.MacAddress ?? '');
      result[name] = {
        IPAMConfig: settings.IPAMConfig ?? null,
        Aliases: settings.Aliases ?? null,
        MacAddress: endpointMac || topMac,
        IPAddress: '',
        Gateway: '',
        IPPrefixLen: 0,
        NetworkID: network?.id ?? '',
        EndpointID: '',
      };
    }
    return result;
  }

  private checkPorts(c: DockerContainer): void {
    const bindings = (c.hostConfig.PortBindings ?? {}) as Record<
      string,
      { HostIp?: string; HostPort?: string }[] | null
    >;
    for (const other of this.containers.values()) {
      if (other === c || other.status !== 'running') continue;
      const used = Object.values((other.hostConfig.PortBindings ?? {}) as typeof bindings)
        .flatMap((b) => b ?? [])
        .map((b) => b.HostPort);
      for (const binding of Object.values(bindings).flatMap((b) => b ?? [])) {
        if (binding.HostPort && used.includes(binding.HostPort)) {
          throw new FakeHttpError(
            500,
            `driver failed programming external connectivity on endpoint ${c.name} (${randomHex(32)}): Bind for ${binding.HostIp || '0.0.0.0'}:${binding.HostPort} failed: port is already allocated`,
          );
        }
      }
    }
  }
}

function validateRestartPolicy(policy: { Name?: string; MaximumRetryCount?: number }): void {
  const name = policy.Name ?? '';
  if (!['', 'no', 'always', 'unless-stopped', 'on-failure'].includes(name)) {
    throw new FakeHttpError(
      400,
      `invalid restart policy: unknown policy '${name}'; use one of 'no', 'always', 'on-failure', or 'unless-stopped'`,
    );
  }
  if (name !== 'on-failure' && (policy.MaximumRetryCount ?? 0) > 0) {
    throw new FakeHttpError(
      400,
      `invalid restart policy: maximum retry count can only be used with 'on-failure'`,
    );
  }
}

function mergeEnv(base: string[], extra: string[]): string[] {
  const map = new Map(base.map((e) => [e.split('=')[0], e]));
  for (const e of extra) map.set(e.split('=')[0], e);
  return [...map.values()];
}

function macFor(ip: string): string {
  const parts = ip.split('.').map((n) => Number(n).toString(16).padStart(2, '0'));
  return `02:42:${parts.join(':')}`;
}

const ADJECTIVES = ['admiring', 'brave', 'clever', 'eager', 'focused', 'gallant', 'jolly', 'quirky'];
const NAMES = ['turing', 'hopper', 'lovelace', 'curie', 'noether', 'ritchie', 'torvalds', 'wozniak'];

function generatedName(): string {
  const pick = (list: string[]) => list[Math.floor(Math.random() * list.length)]!;
  return `${pick(ADJECTIVES)}_${pick(NAMES)}`;
}
