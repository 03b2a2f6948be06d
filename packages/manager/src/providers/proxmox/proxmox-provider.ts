import { pveUsage, pveUsageHistory } from './pve-usage.ts';
import { NodeUnreachableError, ProviderError } from '../types.ts';
import type {
  Created,
  CreateSpec,
  ImportableInstance,
  InstanceInfo,
  LogOptions,
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
import { isTemplateVolume } from '../../images/image-reference.ts';
import { DEFAULT_PLATFORM, platformOfMachine, type Platform } from '../../images/platform.ts';
import { PveApiError, PveClient, pveAuthFor, type PveParams } from './pve-client.ts';
import { waitForTask } from './pve-tasks.ts';
import { openTermproxySession, type TermproxyTicket } from './pve-terminal.ts';
import type { TerminalSession, TerminalSize } from '../terminal.ts';
import { pveTaskHistory } from './pve-task-history.ts';
import {
  checkOciOverrides,
  formatMountPoint,
  lxcListToInstances,
  mergeEnv,
  ociTemplateFile,
  parseEnv,
  parseNet0,
  type PveLxc,
} from './pve-format.ts';

export interface ProxmoxOptions {
  timeoutMs: number;
  /** Interval between task status polls. */
  taskPollMs?: number;
  /** VMID allocation attempts when a concurrent create takes the id first. */
  vmidAttempts?: number;
}

const NVIDIA_DEVICES = ['/dev/nvidia0', '/dev/nvidiactl', '/dev/nvidia-uvm', '/dev/nvidia-uvm-tools'];

/** The `hypervisor` provider: LXC containers through the Proxmox VE HTTP API. */
export class ProxmoxProvider implements Provider {
  private readonly taskPollMs: number;
  private readonly vmidAttempts: number;

  constructor(private readonly options: ProxmoxOptions) {
    this.taskPollMs = options.taskPollMs ?? 500;
    this.vmidAttempts = options.vmidAttempts ?? 10;
  }

  client(node: NodeConnection): PveClient {
    const auth = pveAuthFor(node.tokenId, node.secret);
    if (!node.apiUrl || !auth)
      throw new NodeUnreachableError(`node ${node.name} has no API URL or credentials`);
    return new PveClient(node.apiUrl, tlsPolicyOf(node), auth, this.options.timeoutMs);
  }

  private lxc(node: NodeConnection, vmid?: string) {
    const base = `/nodes/${encodeURIComponent(node.name)}/lxc`;
    return vmid === undefined ? base : `${base}/${encodeURIComponent(vmid)}`;
  }

  private waitTask(client: PveClient, node: NodeConnection, upid: string, ctx: OperationContext) {
    return waitForTask(client, node.name, upid, ctx, {
      pollMs: this.taskPollMs,
      stopTimeoutMs: this.options.timeoutMs,
    });
  }

  private async run(client: PveClient, node: NodeConnection, ctx: OperationContext, start: Promise<string>) {
    await this.waitTask(client, node, await start, ctx);
  }

  /** A template volume id as given, or an OCI image pulled into the image storage (PVE 9.1+). */
  private async template(client: PveClient, node: NodeConnection, image: string, ctx: OperationContext) {
    if (isTemplateVolume(image)) return { volid: image, oci: false };
    const reference = /:[^/]+$/.test(image) ? image : `${image}:latest`;
    const file = ociTemplateFile(reference);
    const volid = `${node.imageStorage}:vztmpl/${file}`;
    const storagePath = `/nodes/${encodeURIComponent(node.name)}/storage/${encodeURIComponent(node.imageStorage)}`;
    const content = await client.get<Array<{ volid: string }>>(
      `${storagePath}/content`,
      { content: 'vztmpl' },
      ctx.signal,
    );
    if (content.some((entry) => entry.volid === volid)) {
      await ctx.log(`Using image template ${volid}`);
      return { volid, oci: true };
    }
    await ctx.log(`Pulling OCI image ${reference} into ${node.imageStorage}`);
    await this.run(
      client,
      node,
      ctx,
      client.post<string>(`${storagePath}/oci-registry-pull`, { reference }, ctx.signal),
    );
    return { volid, oci: true };
  }

  async create(node: NodeConnection, spec: CreateSpec, ctx: OperationContext): Promise<Created> {
    const client = this.client(node);
    if (spec.nvidia) checkMayPassDevices(node);
    const template = await this.template(client, node, spec.image, ctx);
    if (template.oci) checkOciOverrides(spec);
    const params: PveParams = {
      ostemplate: template.volid,
      hostname: spec.hostname,
      storage: node.volumeStorage,
      rootfs: `${node.volumeStorage}:${spec.resources.rootfsGb}`,
      memory: spec.resources.memoryMb,
      swap: spec.resources.swapMb,
      cores: spec.resources.cores,
      net0: `name=eth0,bridge=${node.networkBridge}${spec.macAddress ? `,hwaddr=${spec.macAddress}` : ''},ip=dhcp`,
      unprivileged: true,
      features: 'nesting=1',
      onboot: true,
      nameserver: spec.nameserver,
      searchdomain: spec.searchDomain,
    };
    if (spec.nvidia) NVIDIA_DEVICES.forEach((device, index) => (params[`dev${index}`] = device));
    // Bind mount points: only a root@pam ticket login may set them (PVE refuses API tokens).
    (spec.mounts ?? []).forEach((mount, index) => {
      params[`mp${index}`] = formatMountPoint(mount);
    });

    const vmid = await this.allocateAndCreate(client, node, params, ctx);
    try {
      // A template of the classic kind brings no environment, and takes none.
      if (!template.oci) await this.noOverrides(vmid, template.volid, spec, ctx);
      const imageEnvironment = template.oci
        ? await this.setOciOverrides(client, node, vmid, spec, ctx.signal)
        : {};
      await ctx.log(`Starting CT ${vmid}`);
      await this.run(
        client,
        node,
        ctx,
        client.post<string>(`${this.lxc(node, vmid)}/status/start`, {}, ctx.signal),
      );
      return { containerId: vmid, imageEnvironment };
    } catch (error) {
      await ctx.log(`Removing CT ${vmid} after the failed create`).catch(() => undefined);
      await this.destroy(client, node, vmid, { ...ctx, signal: cleanupSignal(60_000) }).catch(
        () => undefined,
      );
      throw error;
    }
  }

  /**
   * Creating from an OCI template sets the image's entrypoint and env, replacing any given to create:
   * ours go on afterwards, our variables over the image's (which keep PATH and the like). Returns the
   * image's env: the node keeps no copy of it apart from this container's, and reconfigure needs it.
   */
  private async setOciOverrides(
    client: PveClient,
    node: NodeConnection,
    vmid: string,
    spec: CreateSpec,
    signal: AbortSignal,
  ) {
    const image = await this.readEnvironment(client, node, vmid, signal);
    const params: PveParams = { entrypoint: spec.entrypoint ?? undefined };
    if (Object.keys(spec.environment).length) params.env = mergeEnv(image, spec.environment);
    if (params.entrypoint !== undefined || params.env !== undefined)
      await client.put(`${this.lxc(node, vmid)}/config`, params, signal);
    return image;
  }

  /** Says in the job output that a classic template's CT ignores the variables or entrypoint asked for. */
  private async noOverrides(
    vmid: string,
    template: string,
    spec: { environment?: Record<string, string>; entrypoint?: string | null },
    ctx: OperationContext,
  ) {
    if (!Object.keys(spec.environment ?? {}).length && !spec.entrypoint) return;
    await ctx.log(
      `CT ${vmid} runs the template ${template} with its own init: environment variables and an ` +
        `entrypoint apply to OCI images only, so they are not set.`,
    );
  }

  private async readEnvironment(client: PveClient, node: NodeConnection, vmid: string, signal: AbortSignal) {
    const config = await client.get<{ env?: string }>(`${this.lxc(node, vmid)}/config`, {}, signal);
    return parseEnv(config.env);
  }

  /** The CT's `env` (with a pending change, the value it will have). */
  async environment(node: NodeConnection, containerId: string, signal: AbortSignal) {
    return this.readEnvironment(this.client(node), node, containerId, signal);
  }

  /** `/cluster/nextid` is a hint, not a reservation: the create itself judges, and a taken id is retried. */
  private async allocateAndCreate(
    client: PveClient,
    node: NodeConnection,
    params: PveParams,
    ctx: OperationContext,
  ) {
    for (let attempt = 1; ; attempt++) {
      const vmid = String(await client.get<string | number>('/cluster/nextid', {}, ctx.signal));
      try {
        await ctx.made?.(vmid);
        await ctx.log(`Creating CT ${vmid} (${String(params.hostname)}) on ${node.name}`);
        const upid = await client.post<string>(this.lxc(node), { ...params, vmid }, ctx.signal);
        await this.waitTask(client, node, upid, ctx);
        return vmid;
      } catch (error) {
        const taken = error instanceof PveApiError && /already exists/i.test(error.message);
        if (!taken || attempt >= this.vmidAttempts) throw error;
        await ctx.log(`VMID ${vmid} was taken meanwhile; trying the next one`);
      }
    }
  }

  private async current(client: PveClient, node: NodeConnection, vmid: string, signal: AbortSignal) {
    return client.get<PveLxc>(`${this.lxc(node, vmid)}/status/current`, {}, signal);
  }

  async start(node: NodeConnection, containerId: string, ctx: OperationContext) {
    const client = this.client(node);
    await this.run(
      client,
      node,
      ctx,
      client.post<string>(`${this.lxc(node, containerId)}/status/start`, {}, ctx.signal),
    );
  }

  async stop(node: NodeConnection, containerId: string, ctx: OperationContext) {
    const client = this.client(node);
    const path = `${this.lxc(node, containerId)}/status/shutdown`;
    await this.run(
      client,
      node,
      ctx,
      client.post<string>(path, { timeout: 30, forceStop: true }, ctx.signal),
    );
  }

  async restart(node: NodeConnection, containerId: string, ctx: OperationContext) {
    const client = this.client(node);
    const running = (await this.current(client, node, containerId, ctx.signal)).status === 'running';
    const action = running ? 'reboot' : 'start';
    await this.run(
      client,
      node,
      ctx,
      client.post<string>(`${this.lxc(node, containerId)}/status/${action}`, {}, ctx.signal),
    );
  }

  async reconfigure(node: NodeConnection, containerId: string, spec: ReconfigureSpec, ctx: OperationContext) {
    const client = this.client(node);
    const params: PveParams = {
      memory: spec.resources?.memoryMb,
      swap: spec.resources?.swapMb,
      cores: spec.resources?.cores,
    };
    const remove: string[] = [];
    // A classic template runs its own init: variables and an entrypoint are for OCI images only.
    const classic = spec.image !== undefined && isTemplateVolume(spec.image);
    if (classic) await this.noOverrides(containerId, spec.image!, spec, ctx);
    if (spec.environment && !classic) {
      // The whole env is written: the image's, recorded at create, with the user's set over it.
      const env = mergeEnv(spec.imageEnvironment ?? {}, spec.environment);
      if (env) params.env = env;
      else remove.push('env');
    }
    if (spec.entrypoint !== undefined && !classic) {
      if (spec.entrypoint) params.entrypoint = spec.entrypoint;
      else remove.push('entrypoint');
    }
    if (!classic) checkOciOverrides(spec);
    if (remove.length) params.delete = remove.join(',');
    if (Object.values(params).every((value) => value === undefined)) return { containerId };
    await ctx.log(`Updating the configuration of CT ${containerId}`);
    await client.put(`${this.lxc(node, containerId)}/config`, params, ctx.signal);
    if (spec.resources?.rootfsGb) {
      await this.run(
        client,
        node,
        ctx,
        client.put<string>(
          `${this.lxc(node, containerId)}/resize`,
          { disk: 'rootfs', size: `${spec.resources.rootfsGb}G` },
          ctx.signal,
        ),
      );
    }
    return { containerId };
  }

  async delete(node: NodeConnection, containerId: string, ctx: OperationContext) {
    await this.destroy(this.client(node), node, containerId, ctx);
  }

  async discard(node: NodeConnection, made: string, hostname: string, ctx: OperationContext) {
    const client = this.client(node);
    let config: { hostname?: string };
    try {
      config = await client.get<{ hostname?: string }>(`${this.lxc(node, made)}/config`, {}, ctx.signal);
    } catch (error) {
      if (error instanceof PveApiError && /does not exist/.test(error.message)) return false;
      throw error;
    }
    if (config.hostname !== hostname) return false;
    await this.destroy(client, node, made, ctx);
    return true;
  }

  private async destroy(client: PveClient, node: NodeConnection, vmid: string, ctx: OperationContext) {
    await ctx.log(`Destroying CT ${vmid}`);
    await this.run(
      client,
      node,
      ctx,
      client.delete<string>(this.lxc(node, vmid), { force: 1, purge: 1 }, ctx.signal),
    );
  }

  /**
   * The container's console as the PVE web console opens it, all through the API with the node's
   * credentials (never SSH from here): `termproxy` starts a proxy on the node for one connection, with
   * a ticket bound to our user or token, `/vms/<vmid>` and its port (valid 40 s); `vncwebsocket` joins
   * a WebSocket to it. Like the web console, a stopped container is refused before anything starts.
   */
  async terminal(
    node: NodeConnection,
    containerId: string,
    size: TerminalSize,
    signal: AbortSignal,
  ): Promise<TerminalSession> {
    const client = this.client(node);
    const path = this.lxc(node, containerId);
    const { status } = await client.get<{ status: string }>(`${path}/status/current`, {}, signal);
    if (status !== 'running') throw new ProviderError(`CT ${containerId} is not running`);
    const proxy = await client.post<TermproxyTicket>(`${path}/termproxy`, {}, signal);
    const ws = await client.websocket(
      `${path}/vncwebsocket`,
      { port: proxy.port, vncticket: proxy.ticket },
      signal,
    );
    return openTermproxySession(ws, proxy, size, { timeoutMs: this.options.timeoutMs, signal });
  }

  async instances(node: NodeConnection, signal: AbortSignal): Promise<NodeInstances> {
    try {
      const list = await this.client(node).get<PveLxc[]>(this.lxc(node), {}, signal);
      return { reachable: true, instances: lxcListToInstances(list) };
    } catch (error) {
      return { reachable: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  async storages(node: NodeConnection, signal: AbortSignal): Promise<StorageInfo[]> {
    const list = await this.client(node).get<Array<{ storage: string; total?: number; avail?: number }>>(
      `/nodes/${encodeURIComponent(node.name)}/storage`,
      { content: 'vztmpl', enabled: 1 },
      signal,
    );
    return list.map((entry) => ({
      name: entry.storage,
      total: Number(entry.total ?? 0),
      available: Number(entry.avail ?? 0),
    }));
  }

  async stats(node: NodeConnection, signal: AbortSignal): Promise<NodeStats> {
    const client = this.client(node);
    const path = `/nodes/${encodeURIComponent(node.name)}`;
    const [status, storages] = await Promise.all([
      client.get<PveNodeStatus>(`${path}/status`, {}, signal),
      client.get<Array<{ storage: string; total?: number; used?: number; avail?: number }>>(
        `${path}/storage`,
        { enabled: 1 },
        signal,
      ),
    ]);
    return {
      available: true,
      cpu: { usage: Number(status.cpu ?? 0), cores: Number(status.cpuinfo?.cpus ?? 0) },
      memory: { total: Number(status.memory?.total ?? 0), used: Number(status.memory?.used ?? 0) },
      swap: { total: Number(status.swap?.total ?? 0), used: Number(status.swap?.used ?? 0) },
      rootfs: { total: Number(status.rootfs?.total ?? 0), used: Number(status.rootfs?.used ?? 0) },
      uptime: Number(status.uptime ?? 0),
      loadavg: (status.loadavg ?? []).map(Number),
      datastores: storages.map((entry) => ({
        name: entry.storage,
        total: Number(entry.total ?? 0),
        used: Number(entry.used ?? 0),
        available: Number(entry.avail ?? 0),
      })),
    };
  }

  async usage(node: NodeConnection, signal: AbortSignal) {
    return pveUsage(this.client(node), node.name, signal);
  }

  async usageHistory(node: NodeConnection, containerId: string, signal: AbortSignal) {
    return pveUsageHistory(this.client(node), node.name, containerId, signal);
  }

  /**
   * The node status's `current-kernel.machine` (`uname -m`). A release that does not report it is taken
   * for amd64: Proxmox VE is built for amd64 only (arm64 ports are unofficial and recent).
   */
  async platform(node: NodeConnection, signal: AbortSignal): Promise<Platform> {
    const status = await this.client(node).get<PveNodeStatus>(
      `/nodes/${encodeURIComponent(node.name)}/status`,
      {},
      signal,
    );
    const machine = status['current-kernel']?.machine;
    return machine ? platformOfMachine(machine) : DEFAULT_PLATFORM;
  }

  async logs(node: NodeConnection, containerId: string, options: LogOptions, signal: AbortSignal) {
    return pveTaskHistory(this.client(node), node.name, containerId, options, signal);
  }

  async listForImport(node: NodeConnection, signal: AbortSignal): Promise<ImportableInstance[]> {
    const client = this.client(node);
    const list = await client.get<PveLxc[]>(this.lxc(node), {}, signal);
    const result: ImportableInstance[] = [];
    for (const info of lxcListToInstances(list).values()) {
      if (list.find((entry) => String(entry.vmid) === info.containerId)?.template) continue;
      const config = await client.get<Record<string, string | number>>(
        `${this.lxc(node, info.containerId)}/config`,
        {},
        signal,
      );
      result.push(importable(info, config));
    }
    return result;
  }
}

interface PveNodeStatus {
  cpu?: number;
  uptime?: number;
  loadavg?: string[];
  cpuinfo?: { cpus?: number };
  memory?: { total?: number; used?: number };
  swap?: { total?: number; used?: number };
  rootfs?: { total?: number; used?: number };
  'current-kernel'?: { machine?: string };
}

/**
 * Device passthrough (`devN`) is for `root@pam` logged in with a password only: Proxmox VE refuses it
 * to every other user and to every API token, root's included.
 */
function checkMayPassDevices(node: NodeConnection) {
  const auth = pveAuthFor(node.tokenId, node.secret);
  if (auth?.kind === 'ticket' && auth.username === 'root@pam') return;
  const who = auth?.kind === 'token' ? `the API token ${auth.tokenId}` : `the user ${node.tokenId ?? ''}`;
  throw new ProviderError(
    `GPU passthrough on Proxmox VE is only allowed for root@pam logging in with a password, and node ` +
      `${node.name} uses ${who}: set the node's token ID to root@pam and its secret to root's password.`,
  );
}

function importable(info: InstanceInfo, config: Record<string, string | number>): ImportableInstance {
  const net = parseNet0(String(config.net0 ?? ''));
  return {
    ...info,
    hostname: String(config.hostname ?? info.hostname),
    macAddress: net.hwaddr?.toUpperCase() ?? null,
    ipv4Address: net.ip && net.ip !== 'dhcp' && net.ip !== 'manual' ? net.ip.split('/')[0]! : null,
    template: String(config.ostype ?? 'unknown'),
  };
}
