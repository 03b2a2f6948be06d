import { simulatedUsage } from './dummy-usage.ts';
import { retryOnConflict, retryWhileUnavailable } from '@app/server-kit';
import { nowIso } from '../../common/time.ts';
import { pause } from '../pause.ts';
import { dummyLogs } from './dummy-logs.ts';
import type { DummyInstancesRepository } from './dummy-instances-repository.ts';
import type { TerminalSession, TerminalSize } from '../terminal.ts';
import { DummyTerminal } from './dummy-terminal.ts';
import { formatMountPoint } from '../proxmox/pve-format.ts';
import { runSimulated } from './dummy-shell.ts';
import { DEFAULT_PLATFORM, type Platform } from '../../images/platform.ts';
import {
  ProviderError,
  type CreateSpec,
  type ExecSpec,
  type ImportableInstance,
  type InstanceInfo,
  type LogOptions,
  type NodeConnection,
  type NodeInstances,
  type NodeStats,
  type OperationContext,
  type Provider,
  type ReconfigureSpec,
  type Resources,
  type StorageInfo,
} from '../types.ts';

const FIRST_VMID = 100;
const GiB = 1024 ** 3;

/**
 * A simulated node: instances live in the `dummy_instances` table and every operation writes the
 * kind of output a real hypervisor task log has, at a human pace (`stepMs` between lines).
 */
export class DummyProvider implements Provider {
  constructor(
    private readonly instancesRepo: DummyInstancesRepository,
    private readonly stepMs: number,
  ) {}

  private async step(ctx: OperationContext, line: string) {
    await pause(this.stepMs, ctx.signal);
    await ctx.log(line);
  }

  private async find(node: NodeConnection, containerId: string) {
    const vmid = Number(containerId);
    const row = Number.isInteger(vmid) ? await this.instancesRepo.find(node.id, vmid) : undefined;
    if (!row)
      throw new ProviderError(
        `Configuration file 'nodes/${node.name}/lxc/${containerId}.conf' does not exist`,
      );
    return row;
  }

  private async setState(node: NodeConnection, vmid: number, state: 'running' | 'stopped') {
    await this.instancesRepo.update(node.id, vmid, { state });
  }

  async create(node: NodeConnection, spec: CreateSpec, ctx: OperationContext) {
    await ctx.log(`Allocating container on simulated node ${node.name}`);
    const vmid = await retryOnConflict(['node_id', 'vmid'], async () => {
      const next = Math.max((await this.instancesRepo.maxVmid(node.id)) + 1, FIRST_VMID);
      await ctx.made?.(String(next));
      await this.instancesRepo.insert({
        node_id: node.id,
        vmid: next,
        hostname: spec.hostname,
        state: 'stopped',
        config: JSON.stringify({
          image: spec.image,
          macAddress: spec.macAddress,
          entrypoint: spec.entrypoint,
          environment: spec.environment,
          resources: spec.resources,
          mounts: spec.mounts ?? [],
        }),
        created_at: nowIso(),
      });
      return next;
    });
    try {
      await this.step(ctx, `Pulling image ${spec.image}`);
      for (const layer of ['3f4ca61aafcd', '9d2b4b4e5c1a', 'c5e9f2a1b7d0']) {
        await this.step(ctx, `${layer}: Pull complete`);
      }
      await this.step(ctx, `Creating container ${vmid} (${spec.hostname})`);
      await this.step(
        ctx,
        `  rootfs: ${node.volumeStorage}:vm-${vmid}-disk-0,size=${spec.resources.rootfsGb}G`,
      );
      await this.step(
        ctx,
        `  net0: name=eth0,bridge=${node.networkBridge}${spec.macAddress ? `,hwaddr=${spec.macAddress}` : ''},ip=dhcp`,
      );
      if (spec.nvidia) await this.step(ctx, '  dev0: /dev/nvidia0 (GPU passthrough)');
      for (const [index, mount] of (spec.mounts ?? []).entries()) {
        await this.step(ctx, `  mp${index}: ${formatMountPoint(mount)}`);
      }
      await this.step(ctx, `Starting container ${vmid}`);
      await this.setState(node, vmid, 'running');
      await this.step(ctx, 'TASK OK');
      return { containerId: String(vmid) };
    } catch (error) {
      // A failed or cancelled create leaves nothing behind, as on a real node — whose state, unlike this
      // simulation's, does not live in our database, so a database outage waits here.
      await retryWhileUnavailable(() => this.instancesRepo.delete(node.id, vmid));
      throw error;
    }
  }

  async start(node: NodeConnection, containerId: string, ctx: OperationContext) {
    const row = await this.find(node, containerId);
    if (row.state === 'running') throw new ProviderError(`CT ${row.vmid} already running`);
    await this.step(ctx, `Starting container ${row.vmid}`);
    await this.setState(node, row.vmid, 'running');
    await ctx.log('TASK OK');
  }

  async stop(node: NodeConnection, containerId: string, ctx: OperationContext) {
    const row = await this.find(node, containerId);
    if (row.state !== 'running') throw new ProviderError(`CT ${row.vmid} not running`);
    await this.step(ctx, `Stopping container ${row.vmid}`);
    await this.setState(node, row.vmid, 'stopped');
    await ctx.log('TASK OK');
  }

  async restart(node: NodeConnection, containerId: string, ctx: OperationContext) {
    const row = await this.find(node, containerId);
    if (row.state === 'running') await this.step(ctx, `Stopping container ${row.vmid}`);
    await this.setState(node, row.vmid, 'stopped');
    await this.step(ctx, `Starting container ${row.vmid}`);
    await this.setState(node, row.vmid, 'running');
    await ctx.log('TASK OK');
  }

  async reconfigure(node: NodeConnection, containerId: string, spec: ReconfigureSpec, ctx: OperationContext) {
    const row = await this.find(node, containerId);
    const config = { ...(JSON.parse(row.config) as Record<string, unknown>), ...spec };
    await this.step(ctx, `Updating configuration of container ${row.vmid}`);
    await this.instancesRepo.update(node.id, row.vmid, { config: JSON.stringify(config) });
    await ctx.log('TASK OK');
    return { containerId };
  }

  async delete(node: NodeConnection, containerId: string, ctx: OperationContext) {
    const row = await this.find(node, containerId);
    if (row.state === 'running') await this.step(ctx, `Stopping container ${row.vmid}`);
    await this.step(ctx, `Destroying container ${row.vmid}`);
    await this.instancesRepo.delete(node.id, row.vmid);
    await ctx.log('TASK OK');
  }

  async exec(node: NodeConnection, containerId: string, spec: ExecSpec, ctx: OperationContext) {
    const row = await this.find(node, containerId);
    if (row.state !== 'running') throw new ProviderError(`CT ${row.vmid} not running`);
    return {
      exitCode: await runSimulated(spec.command, { print: (line) => ctx.log(line), signal: ctx.signal }),
    };
  }

  async discard(node: NodeConnection, made: string, hostname: string, ctx: OperationContext) {
    const row = await this.find(node, made).catch(() => undefined);
    if (row?.hostname !== hostname) return false;
    await this.delete(node, made, ctx);
    return true;
  }

  private rows(node: NodeConnection) {
    return this.instancesRepo.ofNode(node.id);
  }

  async instances(node: NodeConnection): Promise<NodeInstances> {
    const instances = new Map<string, InstanceInfo>();
    for (const row of await this.rows(node)) {
      instances.set(String(row.vmid), {
        containerId: String(row.vmid),
        hostname: row.hostname,
        state: row.state,
      });
    }
    return { reachable: true, instances };
  }

  async storages(): Promise<StorageInfo[]> {
    return [{ name: 'local', total: 100 * GiB, available: 80 * GiB }];
  }

  async terminal(node: NodeConnection, containerId: string, size: TerminalSize): Promise<TerminalSession> {
    const row = await this.find(node, containerId);
    if (row.state !== 'running') throw new ProviderError(`CT ${row.vmid} not running`);
    return new DummyTerminal(size);
  }

  async usage(node: NodeConnection, _signal: AbortSignal, at: number) {
    const running = (await this.rows(node))
      .filter((row) => row.state === 'running')
      .map((row) => ({
        vmid: row.vmid,
        resources: (JSON.parse(row.config) as { resources: Resources }).resources,
      }));
    return simulatedUsage(running, at);
  }

  async stats(node: NodeConnection): Promise<NodeStats> {
    const rows = await this.rows(node);
    const running = rows.filter((row) => row.state === 'running').length;
    return {
      available: true,
      cpu: { usage: Math.min(0.05 + running * 0.03, 1), cores: 8 },
      memory: { total: 32 * GiB, used: (2 + running * 0.5) * GiB },
      swap: { total: 8 * GiB, used: 0 },
      rootfs: { total: 100 * GiB, used: (10 + rows.length * 2) * GiB },
      uptime: Math.floor(process.uptime()),
      loadavg: [running * 0.1, running * 0.08, running * 0.05],
      datastores: [
        { name: node.imageStorage, total: 100 * GiB, used: 20 * GiB, available: 80 * GiB },
        {
          name: node.volumeStorage,
          total: 500 * GiB,
          used: rows.length * 8 * GiB,
          available: (500 - rows.length * 8) * GiB,
        },
      ],
    };
  }

  /**
   * amd64, like the Proxmox VE node it imitates — not the manager host's CPU, so the demo reads the same
   * image metadata wherever it runs.
   */
  async platform(): Promise<Platform> {
    return DEFAULT_PLATFORM;
  }

  async logs(node: NodeConnection, containerId: string, options: LogOptions, signal: AbortSignal) {
    const row = await this.find(node, containerId);
    const running = async () => (await this.instancesRepo.find(node.id, row.vmid))?.state === 'running';
    return dummyLogs(row.created_at, running, options, signal);
  }

  async listForImport(node: NodeConnection): Promise<ImportableInstance[]> {
    return (await this.rows(node)).map((row) => {
      const config = JSON.parse(row.config) as { image?: string; macAddress?: string | null };
      return {
        containerId: String(row.vmid),
        hostname: row.hostname,
        state: row.state,
        macAddress: config.macAddress ?? null,
        ipv4Address: null,
        template: config.image ?? 'unknown',
      };
    });
  }
}
