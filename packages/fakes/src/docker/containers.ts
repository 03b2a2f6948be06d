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

/** A resource limit (`nofile`, `nproc`, …). */
export interface Ulimit {
  Name: string;
  Soft: number;
  Hard: number;
}

const ZERO_TIME = '0001-01-01T00:00:00Z';

/** Containers and networks of the engine, with the create/start/stop/remove rules. */
export class ContainerStore {
  readonly containers = new Map<string, DockerContainer>();
  readonly networks = new Map<string, DockerNetwork>();
  private nextPid = 4242;
  /**
   * What a create asked for of an endpoint: its MAC (Docker keeps it while stopped), the container's MAC
   * (API < 1.44: the endpoint has it only while running, as Podman's does any MAC), and its address
   * (Podman's inspect shows no `IPAMConfig`).
   */
  private readonly requested = new WeakMap<
    EndpointState,
    { mac: string; containerMac: string; ipv4: string }
  >();

  constructor(
    private readonly images: ImageStore,
    readonly options: {
      gpu: boolean;
      defaultNetwork: string;
      podman: boolean;
      cpus: number;
      ulimits: Ulimit[];
    },
  ) {
    this.addNetwork(options.defaultNetwork, options.podman ? '10.88.0.0/16' : '172.17.0.0/16', false);
  }

  addNetwork(name: string, subnet: string, userDefined = true, gateway?: string): DockerNetwork {
    const base = subnet.split('/')[0]!.split('.').slice(0, 3).join('.');
    const network = {
      name,
      id: randomHex(32),
      subnet,
      gateway: gateway ?? `${base}.1`,
      userDefined,
      next: 2,
    };
    this.networks.set(name, network);
    return network;
  }

  /** Deletes a network no running container is in. */
  removeNetwork(network: DockerNetwork): void {
    const user = [...this.containers.values()].find(
      (c) => c.status === 'running' && network.name in c.networks,
    );
    if (user) {
      throw this.options.podman
        ? new FakeHttpError(
            500,
            `"${network.name}" has associated containers with it. Use -f to forcibly delete containers and pods: network is being used`,
          )
        : new FakeHttpError(
            403,
            `error while removing network: network ${network.name} id ${network.id} has active endpoints`,
          );
    }
    this.networks.delete(network.name);
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

  private named(name: string): DockerContainer | undefined {
    return [...this.containers.values()].find((c) => c.name === name);
  }

  private checkName(name: string): void {
    if (!/^\/?[a-zA-Z0-9][a-zA-Z0-9_.-]+$/.test(name)) {
      throw new FakeHttpError(
        400,
        `Invalid container name (${name}), only [a-zA-Z0-9][a-zA-Z0-9_.-] are allowed`,
      );
    }
  }

  /** `POST /containers/{id}/rename?name=`: the new name must be free (its own counts as taken). */
  rename(c: DockerContainer, name: string): void {
    this.checkName(name);
    const cleanName = name.replace(/^\//, '');
    const taken = this.named(cleanName);
    if (taken) {
      throw new FakeHttpError(
        409,
        this.options.podman
          ? `renaming container ${c.id}: the container name "${cleanName}" is already in use by ${taken.id}. You have to remove that container to be able to reuse that name: that name is already in use`
          : `Conflict. The container name "/${cleanName}" is already in use by container "${taken.id}". You have to remove (or rename) that container to be able to reuse that name.`,
      );
    }
    c.name = cleanName;
  }

  create(name: string | null, body: Record<string, unknown>, apiVersion: string): DockerContainer {
    if (name !== null) this.checkName(name);
    const cleanName = name?.replace(/^\//, '');
    const taken = cleanName ? this.named(cleanName) : undefined;
    if (taken) {
      throw new FakeHttpError(
        this.options.podman ? 500 : 409,
        this.options.podman
          ? `creating container storage: the container name "${cleanName}" is already in use by ${taken.id}. You have to remove that container to be able to reuse that name: that name is already in use`
          : `Conflict. The container name "/${cleanName}" is already in use by container "${taken.id}". You have to remove (or rename) that container to be able to reuse that name.`,
      );
    }
    if (typeof body.Image !== 'string' || !body.Image)
      throw new FakeHttpError(400, 'config cannot be empty in order to create a container');
    const image = this.images.get(body.Image);
    const hostConfig: Record<string, unknown> = {
      NetworkMode: 'bridge',
      RestartPolicy: { Name: 'no', MaximumRetryCount: 0 },
      ...(body.HostConfig as object),
    };
    validateRestartPolicy(
      hostConfig.RestartPolicy as { Name?: string; MaximumRetryCount?: number },
      this.options.podman ? 500 : 400,
    );
    hostConfig.Ulimits = this.ulimits(hostConfig.Ulimits as Ulimit[] | null | undefined);
    this.checkCpus(hostConfig as Record<string, unknown>);
    this.checkMemory(hostConfig as Record<string, unknown>);
    const networks = this.planNetworks(body, hostConfig, apiVersion);
    if (this.options.podman) podmanHostConfig(hostConfig);
    const id = randomHex(32);
    const imageConfig = image.config;
    const labels = { ...imageConfig.Labels, ...(body.Labels as Record<string, string> | undefined) };
    const hostname = (body.Hostname as string) || id.slice(0, 12);
    const env = mergeEnv(imageConfig.Env ?? [], [
      ...((body.Env as string[] | undefined) ?? []),
      // Podman adds these to every container's environment.
      ...(this.options.podman ? ['container=podman', `HOSTNAME=${hostname}`, 'TERM=xterm'] : []),
    ]);
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
        Hostname: hostname,
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
        ...(typeof body.MacAddress === 'string' && !this.options.podman
          ? { MacAddress: body.MacAddress }
          : {}),
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
    this.checkAddresses(c);
    for (const [name, endpoint] of Object.entries(c.networks)) {
      if (name === 'host' || name === 'none') continue;
      const network = this.networks.get(name);
      // Docker checks a network named only in `NetworkMode` when the container starts.
      if (!network) throw new FakeHttpError(404, `network ${name} not found`);
      const base = network.subnet.split('/')[0]!.split('.').slice(0, 3).join('.');
      const requested = this.requested.get(endpoint);
      endpoint.IPAddress = requested?.ipv4 || `${base}.${network.next++}`;
      endpoint.Gateway = network.gateway;
      endpoint.IPPrefixLen = Number(network.subnet.split('/')[1]);
      endpoint.MacAddress = requested?.mac || requested?.containerMac || macFor(endpoint.IPAddress);
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
      endpoint.MacAddress = this.options.podman ? '' : (this.requested.get(endpoint)?.mac ?? '');
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
      if (!network && !['host', 'none'].includes(name) && (this.options.podman || endpoints[name]))
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
        IPAMConfig: this.options.podman ? null : (settings.IPAMConfig ?? null),
        Aliases: settings.Aliases ?? null,
        MacAddress: this.options.podman ? '' : endpointMac,
        IPAddress: '',
        Gateway: '',
        IPPrefixLen: 0,
        NetworkID: network?.id ?? '',
        EndpointID: '',
      };
      this.requested.set(result[name], { mac: endpointMac, containerMac: topMac, ipv4: ip ?? '' });
    }
    return result;
  }

  /** A requested address is checked at start, as Docker does: inside the network, not taken. */
  private checkAddresses(c: DockerContainer): void {
    for (const [name, endpoint] of Object.entries(c.networks)) {
      const wanted = this.requested.get(endpoint)?.ipv4;
      const network = this.networks.get(name);
      if (!wanted || !network) continue;
      if (!inSubnet(wanted, network.subnet)) {
        throw new FakeHttpError(
          500,
          `Invalid address ${wanted}: It does not belong to any of this network's subnets`,
        );
      }
      const taken = [...this.containers.values()].some(
        (other) => other.status === 'running' && other.networks[name]?.IPAddress === wanted,
      );
      if (taken) {
        throw this.options.podman
          ? new FakeHttpError(500, `IPAM error: requested ip address ${wanted} is already allocated`)
          : new FakeHttpError(403, 'Address already in use');
      }
    }
  }

  /** `POST /containers/{id}/update` of the limits the manager changes (Docker's API; Podman 4 has none). */
  update(c: DockerContainer, limits: Record<string, unknown>): void {
    const { Memory, MemorySwap, NanoCpus } = limits;
    const change = {
      ...(Memory !== undefined ? { Memory } : {}),
      ...(MemorySwap !== undefined ? { MemorySwap } : {}),
      ...(NanoCpus !== undefined ? { NanoCpus } : {}),
    };
    this.checkCpus(change);
    this.checkMemory(change);
    Object.assign(c.hostConfig, change);
  }

  /**
   * A container's ulimits as inspect shows them: its own, and the daemon's defaults for the others;
   * Podman names them as the kernel does (`RLIMIT_NOFILE`).
   */
  private ulimits(own: Ulimit[] | null | undefined): Ulimit[] | null {
    const mine = own ?? [];
    const all = [
      ...this.options.ulimits.filter((limit) => !mine.some((o) => o.Name === limit.Name)),
      ...mine,
    ];
    if (!all.length) return null;
    return this.options.podman
      ? all.map((limit) => ({ ...limit, Name: `RLIMIT_${limit.Name.toUpperCase()}` }))
      : all;
  }

  /** Docker refuses a memory limit under 6 MiB (Podman takes it). */
  private checkMemory(hostConfig: Record<string, unknown>): void {
    const memory = Number(hostConfig.Memory ?? 0);
    if (!this.options.podman && memory > 0 && memory < 6 * 1024 * 1024)
      throw new FakeHttpError(400, 'Minimum memory limit allowed is 6MB');
  }

  /**
   * Docker refuses a limit above the host's CPUs (Podman takes it); both refuse `NanoCpus` with
   * `CpuPeriod`/`CpuQuota`. Podman reports `NanoCpus` also as the period and quota it makes of it.
   */
  private checkCpus(hostConfig: Record<string, unknown>): void {
    const { cpus, podman } = this.options;
    const nanoCpus = Number(hostConfig.NanoCpus ?? 0);
    if (!nanoCpus) return;
    if (hostConfig.CpuPeriod || hostConfig.CpuQuota) {
      throw podman
        ? new FakeHttpError(500, 'make cli opts(): NanoCpus conflicts with CpuPeriod and CpuQuota')
        : new FakeHttpError(400, 'Conflicting options: Nano CPUs and CPU Period cannot both be set');
    }
    if (podman) {
      hostConfig.CpuPeriod = 100_000;
      hostConfig.CpuQuota = nanoCpus / 10_000;
    } else if (nanoCpus > cpus * 1e9) {
      throw new FakeHttpError(
        400,
        `Range of CPUs is from 0.01 to ${cpus}.00, as there are only ${cpus} CPUs available`,
      );
    }
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

/**
 * What Podman's inspect shows of a host config: `bridge` for any network by name, and bind mounts with
 * the propagation it gives them.
 */
function podmanHostConfig(hostConfig: Record<string, unknown>): void {
  if (!['host', 'none'].includes(String(hostConfig.NetworkMode))) hostConfig.NetworkMode = 'bridge';
  if (Array.isArray(hostConfig.Binds)) {
    hostConfig.Binds = (hostConfig.Binds as string[]).map((bind) =>
      bind.includes('rbind') ? bind : `${bind}${bind.split(':').length > 2 ? ',' : ':'}rprivate,rbind`,
    );
  }
}

function validateRestartPolicy(policy: { Name?: string; MaximumRetryCount?: number }, status: number): void {
  const name = policy.Name ?? '';
  if (!['', 'no', 'always', 'unless-stopped', 'on-failure'].includes(name)) {
    throw new FakeHttpError(
      status,
      `invalid restart policy: unknown policy '${name}'; use one of 'no', 'always', 'on-failure', or 'unless-stopped'`,
    );
  }
  if (name !== 'on-failure' && (policy.MaximumRetryCount ?? 0) > 0) {
    throw new FakeHttpError(
      status,
      `invalid restart policy: maximum retry count can only be used with 'on-failure'`,
    );
  }
}

function mergeEnv(base: string[], extra: string[]): string[] {
  const map = new Map(base.map((e) => [e.split('=')[0], e]));
  for (const e of extra) map.set(e.split('=')[0], e);
  return [...map.values()];
}

const ipv4Number = (address: string) =>
  address.split('.').reduce((total, octet) => total * 256 + Number(octet), 0);

function inSubnet(address: string, subnet: string): boolean {
  const [base, prefix] = subnet.split('/');
  const size = 2 ** (32 - Number(prefix));
  return Math.floor(ipv4Number(address) / size) === Math.floor(ipv4Number(base!) / size);
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
