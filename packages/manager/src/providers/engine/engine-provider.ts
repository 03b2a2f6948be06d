import { NodeUnreachableError } from '../types.ts';
import type {
  CreateSpec,
  ExecSpec,
  ImportableInstance,
  InstanceInfo,
  LogOptions,
  NodeConnection,
  NodeInstances,
  NodeStats,
  OperationContext,
  Provider,
  ReconfigureSpec,
  Resources,
  StorageInfo,
} from '../types.ts';
import { cleanupSignal, pause } from '../pause.ts';
import { tlsPolicyOf } from '../http.ts';
import { DEFAULT_PLATFORM, platformOfMachine, type Platform } from '../../images/platform.ts';
import {
  apiAtLeast,
  EngineApiError,
  EngineClient,
  splitReference,
  type PullProgress,
} from './engine-client.ts';
import type { TerminalSize } from '../terminal.ts';
import { openEngineTerminal } from './engine-terminal.ts';
import { execIn } from './engine-exec.ts';
import { engineLogs } from './engine-logs.ts';
import { engineUsage } from './engine-usage.ts';
import { ensureSiteNetwork, isSiteNetwork, MANAGED_LABEL } from './engine-network.ts';

export interface EngineOptions {
  timeoutMs: number;
}

interface ListedContainer {
  Id: string;
  Names?: string[];
  Image: string;
  State: string;
  NetworkSettings?: { Networks?: Record<string, { MacAddress?: string; IPAddress?: string }> };
}

export interface InspectedContainer {
  Id: string;
  Name: string;
  State: { Running: boolean; Status: string };
  Config: {
    Image: string;
    Hostname?: string;
    Env?: string[];
    Entrypoint?: string[] | null;
    Labels?: Record<string, string>;
  };
  HostConfig: Record<string, unknown>;
  NetworkSettings?: {
    Networks?: Record<
      string,
      { IPAMConfig?: { IPv4Address?: string } | null; IPAddress?: string; MacAddress?: string }
    >;
  };
}

const MiB = 1024 * 1024;
/** A recreate makes the replacement under the container's name with this suffix, then renames it. */
const REPLACEMENT_SUFFIX = '.next';
/** On a replacement: whether the container it replaces ran ("true"/"false"), so that it runs too. */
export const RUN_AFTER_REPLACING = `${MANAGED_LABEL}.run-after-replacing`;
/** How long a failed create keeps trying to remove the container it made. */
const CLEANUP_MS = 30_000;

/** Splits an entrypoint command line on whitespace, honouring single and double quotes. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of line.matchAll(pattern))
    words.push(match[1]?.replace(/\\(.)/g, '$1') ?? match[2] ?? match[3]!);
  return words;
}

/** The `engine` provider: containers through the Docker Engine API (Podman's compatible API too). */
export class EngineProvider implements Provider {
  constructor(private readonly options: EngineOptions) {}

  client(node: NodeConnection): EngineClient {
    if (!node.apiUrl) throw new NodeUnreachableError(`node ${node.name} has no engine host`);
    return new EngineClient(node.apiUrl, tlsPolicyOf(node), this.options.timeoutMs);
  }

  private async pull(client: EngineClient, image: string, ctx: OperationContext) {
    const reference = splitReference(image);
    await ctx.log(`Pulling ${reference.repo}:${reference.tag}`);
    const seen = new Map<string, string>();
    await client.pull(
      reference,
      async (progress: PullProgress) => {
        const status = progress.status ?? '';
        // Byte counters repeat many times a second; the job output keeps each layer's state changes.
        if (progress.id && seen.get(progress.id) === status) return;
        if (progress.id) seen.set(progress.id, status);
        await ctx.log(progress.id ? `${progress.id}: ${status}` : status);
      },
      ctx.signal,
    );
  }

  async create(node: NodeConnection, spec: CreateSpec, ctx: OperationContext) {
    const client = this.client(node);
    await this.pull(client, spec.image, ctx);
    const { version, podman } = await client.negotiate(ctx.signal);
    const network = spec.address
      ? await ensureSiteNetwork(client, spec.address, ctx)
      : podman
        ? 'podman'
        : 'bridge';
    const endpoint = {
      ...(spec.address ? { IPAMConfig: { IPv4Address: spec.address.ipv4Address } } : {}),
      ...(spec.macAddress && (podman || apiAtLeast(version, '1.44')) ? { MacAddress: spec.macAddress } : {}),
    };
    const body = {
      Image: spec.image,
      Hostname: spec.hostname,
      Env: Object.entries(spec.environment).map(([key, value]) => `${key}=${value}`),
      ...(spec.entrypoint ? { Entrypoint: splitCommand(spec.entrypoint) } : {}),
      Labels: { [MANAGED_LABEL]: 'true' },
      // Below 1.44 only the container-wide MAC is honoured; from 1.52 only the endpoint's.
      ...(spec.macAddress && !apiAtLeast(version, '1.52') ? { MacAddress: spec.macAddress } : {}),
      HostConfig: {
        Memory: spec.resources.memoryMb * MiB,
        MemorySwap: (spec.resources.memoryMb + spec.resources.swapMb) * MiB,
        NanoCpus: await this.nanoCpus(node, spec.resources.cores, ctx),
        RestartPolicy: { Name: 'unless-stopped' },
        NetworkMode: network,
        ...(spec.nvidia
          ? {
              DeviceRequests: podman
                ? [{ Driver: 'cdi', DeviceIDs: ['nvidia.com/gpu=all'] }]
                : [{ Driver: 'nvidia', Count: -1, Capabilities: [['gpu']] }],
            }
          : {}),
        ...(spec.nameserver ? { Dns: [spec.nameserver] } : {}),
        ...(spec.searchDomain ? { DnsSearch: [spec.searchDomain] } : {}),
        ...(spec.mounts?.length
          ? {
              Binds: spec.mounts.map(
                (mount) => `${mount.hostPath}:${mount.mountPath}:${mount.readOnly ? 'ro' : 'rw'}`,
              ),
            }
          : {}),
      },
      ...(Object.keys(endpoint).length
        ? { NetworkingConfig: { EndpointsConfig: { [network]: endpoint } } }
        : {}),
    };
    await ctx.made?.(spec.hostname);
    await ctx.log(`Creating container ${spec.hostname}`);
    const created = await client.json<{ Id: string; Warnings?: string[] | null }>({
      method: 'POST',
      path: '/containers/create',
      query: { name: spec.hostname },
      body,
      signal: ctx.signal,
    });
    const id = created.body!.Id;
    for (const warning of created.body?.Warnings ?? []) await ctx.log(`Warning: ${warning}`);
    try {
      await ctx.log(`Starting container ${id.slice(0, 12)}`);
      await client.json({ method: 'POST', path: `/containers/${id}/start`, signal: ctx.signal });
      await ctx.log(`Container ${spec.hostname} is running`);
      return { containerId: id };
    } catch (error) {
      await this.removeAfterFailedCreate(client, node, id, ctx).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Removes what a failed create made. The engine may be what failed (stopped, restarting): it is asked
   * again every second for up to 30 s; after that the job output names what is left on the node.
   */
  private async removeAfterFailedCreate(
    client: EngineClient,
    node: NodeConnection,
    id: string,
    ctx: OperationContext,
  ) {
    await ctx.log(`Removing container ${id.slice(0, 12)} after the failed create`);
    const signal = cleanupSignal(CLEANUP_MS);
    for (;;) {
      try {
        await client.json({
          method: 'DELETE',
          path: `/containers/${id}`,
          query: { force: true, v: true },
          signal,
        });
        return;
      } catch (error) {
        if (error instanceof EngineApiError && error.status === 404) return;
        if (signal.aborted) {
          await ctx.log(
            `Warning: container ${id} could not be removed from node ${node.name} ` +
              `(${error instanceof Error ? error.message : String(error)}); remove it there.`,
          );
          return;
        }
        await pause(1000, signal).catch(() => undefined);
      }
    }
  }

  /**
   * The CPU limit in the engine's unit. Docker refuses more CPUs than the host has ("Range of CPUs is
   * from 0.01 to 2.00"); more than that cannot be used anyway, so the limit is the host's count, with
   * a warning in the job output.
   */
  private async nanoCpus(node: NodeConnection, cores: number, ctx: OperationContext) {
    const available = Number((await this.info(node, ctx.signal)).NCPU ?? 0);
    if (available > 0 && cores > available) {
      await ctx.log(
        `Warning: ${cores} CPUs asked for, but node ${node.name} has ${available}; the container may use all ${available}.`,
      );
      return available * 1e9;
    }
    return cores * 1e9;
  }

  async start(node: NodeConnection, containerId: string, ctx: OperationContext) {
    await ctx.log(`Starting container ${containerId.slice(0, 12)}`);
    const { status } = await this.client(node).json({
      method: 'POST',
      path: `/containers/${containerId}/start`,
      signal: ctx.signal,
    });
    await ctx.log(status === 304 ? 'Already running' : 'Started');
  }

  async stop(node: NodeConnection, containerId: string, ctx: OperationContext) {
    await ctx.log(`Stopping container ${containerId.slice(0, 12)}`);
    const { status } = await this.client(node).json({
      method: 'POST',
      path: `/containers/${containerId}/stop`,
      query: { t: 10 },
      signal: ctx.signal,
      timeoutMs: this.options.timeoutMs + 15_000,
    });
    await ctx.log(status === 304 ? 'Already stopped' : 'Stopped');
  }

  exec(node: NodeConnection, containerId: string, spec: ExecSpec, ctx: OperationContext) {
    return execIn(this.client(node), containerId, spec, ctx);
  }

  async restart(node: NodeConnection, containerId: string, ctx: OperationContext) {
    await ctx.log(`Restarting container ${containerId.slice(0, 12)}`);
    await this.client(node).json({
      method: 'POST',
      path: `/containers/${containerId}/restart`,
      query: { t: 10 },
      signal: ctx.signal,
      timeoutMs: this.options.timeoutMs + 15_000,
    });
    await ctx.log('Restarted');
  }

  /**
   * Resources change in place where the engine can (Docker; Podman from 5.1). Environment and
   * entrypoint are fixed at create on this API, so a change to them, or to resources on an older
   * Podman, recreates the container with the same name, MAC and settings (its id changes).
   */
  async reconfigure(node: NodeConnection, recordedId: string, spec: ReconfigureSpec, ctx: OperationContext) {
    const client = this.client(node);
    // After an interrupted recreate the change is applied again, to the replacement.
    const containerId =
      (spec.hostname && (await this.finishReplacement(client, recordedId, spec.hostname, ctx))) || recordedId;
    const limits = await this.limits(node, spec.resources ?? {}, ctx);
    const limitsSet = !limits || (await this.updateInPlace(client, node, containerId, limits, ctx));
    const recreateFor = [
      ...(spec.environment !== undefined || spec.entrypoint !== undefined
        ? ['environment and entrypoint']
        : []),
      ...(limitsSet ? [] : ['resources']),
    ];
    if (!recreateFor.length) return { containerId };
    const inspected = (
      await client.json<InspectedContainer>({
        method: 'GET',
        path: `/containers/${containerId}/json`,
        signal: ctx.signal,
      })
    ).body!;
    const name = inspected.Name.replace(/^\//, '');
    await ctx.log(`Recreating ${name} with the new ${recreateFor.join(' and ')}`);
    // The replacement is made before the container goes, so that a worker dying half-way leaves
    // one of the two on the node, never neither (see finishReplacement).
    const replacement = `${name}${REPLACEMENT_SUFFIX}`;
    await this.removeIfPresent(client, replacement, ctx);
    const created = await client.json<{ Id: string }>({
      method: 'POST',
      path: '/containers/create',
      query: { name: replacement },
      body: {
        ...inspected.Config,
        Labels: { ...inspected.Config.Labels, [RUN_AFTER_REPLACING]: String(inspected.State.Running) },
        ...(spec.environment
          ? { Env: Object.entries(spec.environment).map(([key, value]) => `${key}=${value}`) }
          : {}),
        // A new (or cleared) entrypoint is set as at create: the daemon then takes the image's Cmd only
        // when no entrypoint is given, so the old Cmd must not travel along as the new one's arguments.
        ...(spec.entrypoint !== undefined
          ? { Entrypoint: spec.entrypoint ? splitCommand(spec.entrypoint) : null, Cmd: null }
          : {}),
        HostConfig: recreatable({ ...inspected.HostConfig, ...limits }),
        NetworkingConfig: { EndpointsConfig: sameEndpoints(inspected) },
      },
      signal: ctx.signal,
    });
    await client.json({
      method: 'DELETE',
      path: `/containers/${containerId}`,
      query: { force: true },
      signal: ctx.signal,
    });
    return this.takeOver(client, created.body!.Id, name, inspected.State.Running, ctx);
  }

  /** The replacement takes the replaced container's name, and runs if that one ran. */
  private async takeOver(
    client: EngineClient,
    id: string,
    name: string,
    run: boolean,
    ctx: OperationContext,
  ) {
    await client.json({
      method: 'POST',
      path: `/containers/${id}/rename`,
      query: { name },
      signal: ctx.signal,
    });
    if (run) await client.json({ method: 'POST', path: `/containers/${id}/start`, signal: ctx.signal });
    return { containerId: id };
  }

  /**
   * For a recreate whose worker died after the replaced container was removed: the replacement (still
   * under its own name, or renamed but perhaps not started) takes over, and its id is returned.
   * Undefined when the recorded container is still there.
   */
  private async finishReplacement(
    client: EngineClient,
    containerId: string,
    hostname: string,
    ctx: OperationContext,
  ): Promise<string | undefined> {
    if (await this.inspectIfPresent(client, containerId, ctx)) return undefined;
    for (const name of [hostname, `${hostname}${REPLACEMENT_SUFFIX}`]) {
      const found = await this.inspectIfPresent(client, name, ctx);
      if (found?.Config.Labels?.[RUN_AFTER_REPLACING] === undefined) continue;
      await ctx.log(`Finishing the interrupted recreate of ${hostname}: ${name} takes its place`);
      const run = found.Config.Labels[RUN_AFTER_REPLACING] === 'true' && !found.State.Running;
      if (name !== hostname) return (await this.takeOver(client, found.Id, hostname, run, ctx)).containerId;
      if (run)
        await client.json({ method: 'POST', path: `/containers/${found.Id}/start`, signal: ctx.signal });
      return found.Id;
    }
    return undefined;
  }

  private async inspectIfPresent(client: EngineClient, ref: string, ctx: OperationContext) {
    try {
      return (
        await client.json<InspectedContainer>({
          method: 'GET',
          path: `/containers/${encodeURIComponent(ref)}/json`,
          signal: ctx.signal,
        })
      ).body!;
    } catch (error) {
      if (error instanceof EngineApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  private async removeIfPresent(client: EngineClient, name: string, ctx: OperationContext) {
    const leftover = await this.inspectIfPresent(client, name, ctx);
    if (!leftover) return;
    await ctx.log(`Removing ${name}, left by an interrupted recreate`);
    await client.json({
      method: 'DELETE',
      path: `/containers/${leftover.Id}`,
      query: { force: true },
      signal: ctx.signal,
    });
  }

  /** The engine's limits for changed `resources`, or undefined when neither memory nor CPUs change. */
  private async limits(node: NodeConnection, resources: Partial<Resources>, ctx: OperationContext) {
    if (!resources.memoryMb && !resources.cores && resources.swapMb === undefined) return undefined;
    const memory = resources.memoryMb ? resources.memoryMb * MiB : undefined;
    return {
      ...(memory ? { Memory: memory, MemorySwap: memory + (resources.swapMb ?? 0) * MiB } : {}),
      ...(resources.cores ? { NanoCpus: await this.nanoCpus(node, resources.cores, ctx) } : {}),
    };
  }

  /**
   * Changes the limits of the container as it runs; false where the engine has no such call: Podman
   * before 5.1 answers 404 (its own update changes the running cgroups only, which inspect does not
   * show and a restart undoes).
   */
  private async updateInPlace(
    client: EngineClient,
    node: NodeConnection,
    containerId: string,
    limits: Record<string, number>,
    ctx: OperationContext,
  ) {
    await ctx.log(`Updating resources of ${containerId.slice(0, 12)}`);
    try {
      await client.json({
        method: 'POST',
        path: `/containers/${containerId}/update`,
        body: limits,
        signal: ctx.signal,
      });
      return true;
    } catch (error) {
      const noSuchCall =
        error instanceof EngineApiError &&
        error.status === 404 &&
        (await client.negotiate(ctx.signal)).podman;
      if (!noSuchCall) throw error;
      await ctx.log(`Node ${node.name} cannot change the limits of a container in place`);
      return false;
    }
  }

  async delete(node: NodeConnection, containerId: string, ctx: OperationContext) {
    await ctx.log(`Removing container ${containerId.slice(0, 12)}`);
    try {
      await this.client(node).json({
        method: 'DELETE',
        path: `/containers/${containerId}`,
        query: { force: true, v: true },
        signal: ctx.signal,
      });
    } catch (error) {
      if (!(error instanceof EngineApiError && error.status === 404)) throw error;
      await ctx.log('The container was already gone');
    }
  }

  /** `made` is the container's name; only a container this manager labelled, with that hostname, goes. */
  async discard(node: NodeConnection, made: string, hostname: string, ctx: OperationContext) {
    const inspected = await this.inspectIfPresent(this.client(node), made, ctx);
    if (!inspected) return false;
    if (inspected.Config.Labels?.[MANAGED_LABEL] !== 'true' || inspected.Config.Hostname !== hostname)
      return false;
    await this.delete(node, inspected.Id, ctx);
    return true;
  }

  private async list(node: NodeConnection, signal: AbortSignal): Promise<ListedContainer[]> {
    return (
      (
        await this.client(node).json<ListedContainer[]>({
          method: 'GET',
          path: '/containers/json',
          query: { all: true },
          signal,
        })
      ).body ?? []
    );
  }

  async instances(node: NodeConnection, signal: AbortSignal): Promise<NodeInstances> {
    try {
      const instances = new Map<string, InstanceInfo>();
      for (const entry of await this.list(node, signal)) instances.set(entry.Id, toInfo(entry));
      return { reachable: true, instances };
    } catch (error) {
      return { reachable: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  async storages(): Promise<StorageInfo[]> {
    return [];
  }

  private async info(node: NodeConnection, signal: AbortSignal): Promise<EngineInfo> {
    return (await this.client(node).json<EngineInfo>({ method: 'GET', path: '/info', signal })).body ?? {};
  }

  async stats(node: NodeConnection, signal: AbortSignal): Promise<NodeStats> {
    const info = await this.info(node, signal);
    return {
      available: true,
      cpu: { cores: Number(info.NCPU ?? 0) },
      memory: { total: Number(info.MemTotal ?? 0) },
      containers: {
        total: Number(info.Containers ?? 0),
        running: Number(info.ContainersRunning ?? 0),
      },
    };
  }

  async usage(node: NodeConnection, signal: AbortSignal) {
    return engineUsage(this.client(node), await this.info(node, signal), signal);
  }

  /** `/info` `Architecture`: the kernel's name on Docker (`x86_64`, `aarch64`), Go's on Podman (`arm64`). */
  async platform(node: NodeConnection, signal: AbortSignal): Promise<Platform> {
    const { Architecture } = await this.info(node, signal);
    return Architecture ? platformOfMachine(Architecture) : DEFAULT_PLATFORM;
  }

  terminal(node: NodeConnection, containerId: string, size: TerminalSize, signal: AbortSignal) {
    return openEngineTerminal(this.client(node), containerId, size, signal);
  }

  async logs(node: NodeConnection, containerId: string, options: LogOptions, signal: AbortSignal) {
    return engineLogs(this.client(node), containerId, options, signal);
  }

  async listForImport(node: NodeConnection, signal: AbortSignal): Promise<ImportableInstance[]> {
    return (await this.list(node, signal)).map((entry) => {
      const network = Object.values(entry.NetworkSettings?.Networks ?? {})[0];
      return {
        ...toInfo(entry),
        macAddress: network?.MacAddress ? network.MacAddress.toUpperCase() : null,
        ipv4Address: network?.IPAddress || null,
        template: entry.Image,
      };
    });
  }
}

interface EngineInfo {
  NCPU?: number;
  MemTotal?: number;
  Containers?: number;
  ContainersRunning?: number;
  Architecture?: string;
}

/**
 * The inspected host config made fit to create with again. Podman reports a `NanoCpus` limit also as
 * the `CpuPeriod` and `CpuQuota` it made of it, and ulimits by their kernel names (`RLIMIT_NOFILE`),
 * and refuses both in a create ("NanoCpus conflicts with CpuPeriod and CpuQuota", "invalid ulimit type").
 */
export const recreatable = (hostConfig: Record<string, unknown>) => {
  const { CpuPeriod, CpuQuota, Ulimits, ...rest } = hostConfig;
  return {
    ...rest,
    ...(rest.NanoCpus ? {} : { CpuPeriod, CpuQuota }),
    ...(Array.isArray(Ulimits)
      ? {
          Ulimits: (Ulimits as Array<{ Name: string }>).map((limit) => ({
            ...limit,
            Name: limit.Name.replace(/^RLIMIT_/, '').toLowerCase(),
          })),
        }
      : { Ulimits }),
  };
};

/**
 * The recreated container keeps its MAC, and in a site network its address. Podman's inspect leaves
 * `IPAMConfig` empty even for a requested address, so then it is the address the container has.
 */
export const sameEndpoints = (inspected: InspectedContainer) =>
  Object.fromEntries(
    Object.entries(inspected.NetworkSettings?.Networks ?? {}).map(([name, network]) => {
      const address = network.IPAMConfig?.IPv4Address || network.IPAddress;
      return [
        name,
        {
          ...(address && isSiteNetwork(name) ? { IPAMConfig: { IPv4Address: address } } : {}),
          ...(network.MacAddress ? { MacAddress: network.MacAddress } : {}),
        },
      ];
    }),
  );

const toInfo = (entry: ListedContainer): InstanceInfo => ({
  containerId: entry.Id,
  hostname: (entry.Names?.[0] ?? entry.Id.slice(0, 12)).replace(/^\//, ''),
  state: entry.State === 'running' ? 'running' : 'stopped',
});
