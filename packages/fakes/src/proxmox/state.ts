import { createHash } from 'node:crypto';
import { pveError } from './errors.ts';

export type ConfigValue = string | number;

export interface PveVolume {
  volid: string;
  content: string;
  format: string;
  size: number;
  ctime: number;
  vmid?: number;
}

export interface PveStorage {
  storage: string;
  type: string;
  content: string[];
  enabled: boolean;
  active: boolean;
  shared: boolean;
  total: number;
  used: number;
  volumes: PveVolume[];
}

export interface PveNode {
  name: string;
  online: boolean;
  maxcpu: number;
  cpu: number;
  maxmem: number;
  mem: number;
  maxdisk: number;
  disk: number;
  swapTotal: number;
  swapUsed: number;
  bootTime: number;
  loadavg: [string, string, string];
  storages: Map<string, PveStorage>;
  /** `uname -m`, reported as the status's `current-kernel.machine`. */
  machine: string;
}

export interface PveContainer {
  vmid: number;
  node: string;
  status: 'running' | 'stopped';
  config: Record<string, ConfigValue>;
  /** Options stored for the next start (set while running). */
  pending: Record<string, ConfigValue>;
  lock?: string;
  startedAt?: number;
  pid?: number;
}

export interface NodeInit {
  name: string;
  online?: boolean;
  maxcpu?: number;
  maxmem?: number;
  maxdisk?: number;
  /** The CPU as `uname -m` names it (default `x86_64`; arm64 ports of Proxmox VE say `aarch64`). */
  machine?: string;
  /** Extra storages; every node gets `local` (dir) and `local-lvm` (lvmthin) unless named here. */
  storages?: Partial<PveStorage>[];
}

const GiB = 1024 ** 3;

export function defaultStorages(): PveStorage[] {
  return [
    {
      storage: 'local',
      type: 'dir',
      content: ['vztmpl', 'iso', 'backup', 'import'],
      enabled: true,
      active: true,
      shared: false,
      total: 100 * GiB,
      used: 12 * GiB,
      volumes: [],
    },
    {
      storage: 'local-lvm',
      type: 'lvmthin',
      content: ['rootdir', 'images'],
      enabled: true,
      active: true,
      shared: false,
      total: 350 * GiB,
      used: 20 * GiB,
      volumes: [],
    },
  ];
}

/** The cluster's in-memory state: nodes, their storages and volumes, and every container. */
export class PveState {
  readonly nodes = new Map<string, PveNode>();
  readonly containers = new Map<number, PveContainer>();

  addNode(init: NodeInit): PveNode {
    const storages = new Map<string, PveStorage>();
    for (const s of defaultStorages()) storages.set(s.storage, s);
    for (const s of init.storages ?? []) {
      const base = storages.get(s.storage ?? '') ?? defaultStorages()[0]!;
      storages.set(s.storage!, { ...base, volumes: [], ...s } as PveStorage);
    }
    const node: PveNode = {
      name: init.name,
      online: init.online ?? true,
      maxcpu: init.maxcpu ?? 8,
      cpu: 0.05,
      maxmem: init.maxmem ?? 32 * GiB,
      mem: 4 * GiB,
      maxdisk: init.maxdisk ?? 100 * GiB,
      disk: 12 * GiB,
      swapTotal: 8 * GiB,
      swapUsed: 0,
      bootTime: Math.floor(Date.now() / 1000) - 86_400,
      loadavg: ['0.12', '0.08', '0.02'],
      storages,
      machine: init.machine ?? 'x86_64',
    };
    this.nodes.set(node.name, node);
    return node;
  }

  /** The node a `/nodes/{node}/...` call names; unknown → 500 hostname lookup failure. */
  node(name: string): PveNode {
    const node = this.nodes.get(name);
    if (!node) {
      throw pveError(
        500,
        `hostname lookup '${name}' failed - failed to get address info for: ${name}: Name or service not known`,
      );
    }
    return node;
  }

  container(node: string, vmid: number): PveContainer {
    const ct = this.containers.get(vmid);
    if (!ct || ct.node !== node) {
      throw pveError(500, `Configuration file 'nodes/${node}/lxc/${vmid}.conf' does not exist`);
    }
    return ct;
  }

  storage(node: PveNode, name: string): PveStorage {
    const storage = node.storages.get(name);
    if (!storage) throw pveError(500, `storage '${name}' does not exist`);
    return storage;
  }

  nextId(): number {
    let id = 100;
    while (this.containers.has(id)) id++;
    return id;
  }

  findVolume(node: PveNode, volid: string): PveVolume | undefined {
    const storage = node.storages.get(volid.split(':')[0] ?? '');
    return storage?.volumes.find((v) => v.volid === volid);
  }

  addVolume(
    node: PveNode,
    storageName: string,
    volume: Omit<PveVolume, 'volid' | 'ctime'> & { name: string },
  ) {
    const storage = this.storage(node, storageName);
    const volid =
      volume.content === 'vztmpl' ? `${storageName}:vztmpl/${volume.name}` : `${storageName}:${volume.name}`;
    const { name: _name, ...rest } = volume;
    const entry: PveVolume = { ...rest, volid, ctime: Math.floor(Date.now() / 1000) };
    storage.volumes = storage.volumes.filter((v) => v.volid !== volid).concat(entry);
    storage.used += entry.size;
    return entry;
  }

  removeVolumes(vmid: number): void {
    for (const node of this.nodes.values()) {
      for (const storage of node.storages.values()) {
        const gone = storage.volumes.filter((v) => v.vmid === vmid);
        storage.used -= gone.reduce((sum, v) => sum + v.size, 0);
        storage.volumes = storage.volumes.filter((v) => v.vmid !== vmid);
      }
    }
  }
}

/** SHA-1 of the config as pct writes it, the `digest` PUT config compares. */
export function configDigest(config: Record<string, ConfigValue>): string {
  const text = Object.keys(config)
    .sort()
    .map((k) => `${k}: ${config[k]}`)
    .join('\n');
  return createHash('sha1').update(text).digest('hex');
}
