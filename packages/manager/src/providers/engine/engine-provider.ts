import { NodeUnreachableError } from '../types.ts';
import type {
  CreateSpec,
  ImportableInstance,
  InstanceInfo,
  NodeConnection,
  NodeInstances,
  NodeStats,
  OperationContext,
  Provider,
  ReconfigureSpec,
  StorageInfo,
} from '../types.ts';
import { cleanupSignal } from '../pause.ts';
import { tlsPolicyOf } from '../http.ts';
import { DEFAULT_PLATFORM, platformOfMachine, type Platform } from '../../images/platform.ts';
import {
  apiAtLeast,
  EngineApiError,
  EngineClient,
  splitReference,
  type PullProgress,
} from './engine-client.ts';

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

interface InspectedContainer {
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
}

const MiB = 1024 * 1024;
const LABEL = 'org.container-manager.managed';

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
    const network = podman ? 'podman' : 'bridge';
    const body = {
      Image: spec.image,
      Hostname: spec.hostname,
      Env: Object.entries(spec.environment).map(([key, value]) => `${key}=${value}`),
      ...(spec.entrypoint ? { Entrypoint: splitCommand(spec.entrypoint) } : {}),
      Labels: { [LABEL]: 'true' },
      // Below 1.44 only the container-wide MAC is honoured; from 1.52 only the endpoint's.
      ...(spec.macAddress && !apiAtLeast(version, '1.52') ? { MacAddress: spec.macAddress } : {}),
      HostConfig: {
        Memory: spec.resources.memoryMb * MiB,
        MemorySwap: (spec.resources.memoryMb + spec.resources.swapMb) * MiB,
        NanoCpus: spec.resources.cores * 1e9,
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
      ...(spec.macAddress && (podman || apiAtLeast(version, '1.44'))
        ? { NetworkingConfig: { EndpointsConfig: { [network]: { MacAddress: spec.macAddress } } } }
        : {}),
    };
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
      await ctx.log(`Removing container ${id.slice(0, 12)} after the failed create`).catch(() => undefined);
      await client
        .json({
          method: 'DELETE',
          path: `/containers/${id}`,
          query: { force: true, v: true },
          signal: cleanupSignal(30_000),
        })
        .catch(() => undefined);
      throw error;
    }
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
   * Resources change in place. Environment and entrypoint are fixed at create on this API, so a
   * change to them recreates the container with the same name, MAC and settings (its id changes).
   */
  async reconfigure(node: NodeConnection, containerId: string, spec: ReconfigureSpec, ctx: OperationContext) {
    const client = this.client(node);
    const resources = spec.resources ?? {};
    if (resources.memoryMb || resources.cores || resources.swapMb !== undefined) {
      const memory = resources.memoryMb ? resources.memoryMb * MiB : undefined;
      await ctx.log(`Updating resources of ${containerId.slice(0, 12)}`);
      await client.json({
        method: 'POST',
        path: `/containers/${containerId}/update`,
        body: {
          ...(memory ? { Memory: memory, MemorySwap: memory + (resources.swapMb ?? 0) * MiB } : {}),
          ...(resources.cores ? { NanoCpus: resources.cores * 1e9 } : {}),
        },
        signal: ctx.signal,
      });
    }
    if (spec.environment === undefined && spec.entrypoint === undefined) return { containerId };
    const inspected = (
      await client.json<InspectedContainer>({
        method: 'GET',
        path: `/containers/${containerId}/json`,
        signal: ctx.signal,
      })
    ).body!;
    await ctx.log(`Recreating ${inspected.Name.replace(/^\//, '')} with the new environment and entrypoint`);
    await client.json({
      method: 'DELETE',
      path: `/containers/${containerId}`,
      query: { force: true },
      signal: ctx.signal,
    });
    const created = await client.json<{ Id: string }>({
      method: 'POST',
      path: '/containers/create',
      query: { name: inspected.Name.replace(/^\//, '') },
      body: {
        ...inspected.Config,
        ...(spec.environment
          ? { Env: Object.entries(spec.environment).map(([key, value]) => `${key}=${value}`) }
          : {}),
        // A new (or cleared) entrypoint is set as at create: the daemon then takes the image's Cmd only
        // when no entrypoint is given, so the old Cmd must not travel along as the new one's arguments.
        ...(spec.entrypoint !== undefined
          ? { Entrypoint: spec.entrypoint ? splitCommand(spec.entrypoint) : null, Cmd: null }
          : {}),
        HostConfig: inspected.HostConfig,
      },
      signal: ctx.signal,
    });
    const id = created.body!.Id;
    if (inspected.State.Running)
      await client.json({ method: 'POST', path: `/containers/${id}/start`, signal: ctx.signal });
    return { containerId: id };
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

  /** `/info` `Architecture`: the kernel's name on Docker (`x86_64`, `aarch64`), Go's on Podman (`arm64`). */
  async platform(node: NodeConnection, signal: AbortSignal): Promise<Platform> {
    const { Architecture } = await this.info(node, signal);
    return Architecture ? platformOfMachine(Architecture) : DEFAULT_PLATFORM;
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

const toInfo = (entry: ListedContainer): InstanceInfo => ({
  containerId: entry.Id,
  hostname: (entry.Names?.[0] ?? entry.Id.slice(0, 12)).replace(/^\//, ''),
  state: entry.State === 'running' ? 'running' : 'stopped',
});
