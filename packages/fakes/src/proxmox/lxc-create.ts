import { randomBytes } from 'node:crypto';
import type { AuthIdentity } from './auth.ts';
import { paramError, pveError } from './errors.ts';
import {
  checkRootOnlyOptions,
  detectOstype,
  normaliseNet,
  normaliseTags,
  rejectNewOptions,
} from './lxc-options.ts';
import { formatPropertyString, parsePropertyString } from './params.ts';
import type { ConfigValue, PveContainer, PveNode, PveState, PveStorage } from './state.ts';
import type { TaskWork } from './tasks.ts';

/** OCI image data recorded for an OCI-archive template (PVE 9.1+). */
export interface OciTemplateConfig {
  entrypoint?: string[];
  cmd?: string[];
  env?: string[];
  workingDir?: string;
}

const NOT_CONFIG = new Set([
  'vmid',
  'node',
  'ostemplate',
  'storage',
  'password',
  'ssh-public-keys',
  'start',
  'force',
  'restore',
  'unique',
  'ignore-unpack-errors',
  'bwlimit',
  'pool',
  'ha-managed',
]);

export interface CreatePlan {
  container: PveContainer;
  work: TaskWork;
  start: boolean;
}

/**
 * Validates `POST /nodes/{node}/lxc` synchronously (as PVE does before forking the worker) and plans
 * the `vzcreate` task: the config is written at once with `lock: create`.
 */
export function planCreate(
  state: PveState,
  node: PveNode,
  params: Record<string, string | number>,
  auth: AuthIdentity,
  ociTemplates: Map<string, OciTemplateConfig> | undefined,
): CreatePlan {
  rejectNewOptions(params, ociTemplates !== undefined);
  const vmid = params.vmid as number;
  const existing = state.containers.get(vmid);
  if (existing) throw pveError(500, `CT ${vmid} already exists on node '${existing.node}'`);
  const ostemplate = String(params.ostemplate);
  if (!/^[a-z][a-z0-9\-_.]*[a-z0-9]:.+$/i.test(ostemplate)) {
    throw pveError(500, `unable to parse volume ID '${ostemplate}'`);
  }
  checkRootOnlyOptions(auth, params);

  const storageName = String(params.storage ?? 'local');
  const config: Record<string, ConfigValue> = {};
  for (const [key, value] of Object.entries(params)) if (!NOT_CONFIG.has(key)) config[key] = value;
  const rootfs = parsePropertyString(String(config.rootfs ?? `${storageName}:4`), 'volume');
  const [rootStorage, rootSize] = rootVolume(rootfs.get('volume')!, storageName);
  const storage = node.storages.get(rootStorage);
  if (!storage) throw paramError({ storage: `storage '${rootStorage}' does not exist` });
  if (!storage.content.includes('rootdir')) {
    throw paramError({ storage: `storage '${rootStorage}' does not support container directories` });
  }
  const diskName = storage.type === 'dir' ? `${vmid}/vm-${vmid}-disk-0.raw` : `vm-${vmid}-disk-0`;
  rootfs.set('volume', `${rootStorage}:${diskName}`);
  rootfs.set('size', `${rootSize}G`);
  config.rootfs = formatPropertyString(rootfs, 'volume');
  for (const key of Object.keys(config))
    if (/^net\d+$/.test(key)) config[key] = normaliseNet(key, String(config[key]));
  if (config.tags !== undefined) config.tags = normaliseTags(String(config.tags));
  config.arch ??= 'amd64';
  config.hostname ??= `CT${vmid}`;
  config.memory ??= 512;
  config.swap ??= 512;
  config.unprivileged ??= 1;
  config.ostype ??= detectOstype(ostemplate);
  const oci = ociTemplates?.get(ostemplate);
  if (oci) applyOciConfig(config, oci);

  const container: PveContainer = {
    vmid,
    node: node.name,
    status: 'stopped',
    config,
    pending: {},
    lock: 'create',
  };
  const template = state.findVolume(node, ostemplate);
  const work: TaskWork = {
    errorPrefix: `unable to create CT ${vmid} - `,
    lines: createLog(vmid, storage.type, rootSize, ostemplate, String(config.hostname), !!oci),
    run: () => {
      if (!template) throw new Error(`volume '${ostemplate}' does not exist`);
      checkRoom(storage, diskName, rootSize);
      state.addVolume(node, rootStorage, {
        name: diskName,
        content: 'rootdir',
        format: 'raw',
        size: rootSize * 1024 ** 3,
        vmid,
      });
      delete container.lock;
    },
    onError: () => {
      state.containers.delete(vmid);
      state.removeVolumes(vmid);
    },
  };
  return { container, work, start: params.start === 1 };
}

const EXTENT = 4 * 1024 ** 2;

/** A thick LVM storage allocates the whole volume up front (thin pools and directories over-commit). */
function checkRoom(storage: PveStorage, diskName: string, sizeGiB: number) {
  const free = storage.total - storage.used;
  const needed = sizeGiB * 1024 ** 3;
  if (storage.type !== 'lvm' || needed <= free) return;
  throw new Error(
    `lvcreate 'pve/${diskName}' error:   Volume group "pve" has insufficient free space ` +
      `(${Math.floor(free / EXTENT)} extents): ${Math.ceil(needed / EXTENT)} required.`,
  );
}

function rootVolume(volume: string, defaultStorage: string): [string, number] {
  const plain = /^(\d+(?:\.\d+)?)$/.exec(volume);
  if (plain) return [defaultStorage, Number(plain[1])];
  const alloc = /^([a-z][a-z0-9\-_.]*[a-z0-9]):(\d+(?:\.\d+)?)$/i.exec(volume);
  if (alloc) return [alloc[1]!, Number(alloc[2])];
  throw paramError({ rootfs: `invalid format - unable to parse volume '${volume}'` });
}

/** PVE 9.1 OCI templates: entrypoint, console mode, image env and host-managed networking. */
function applyOciConfig(config: Record<string, ConfigValue>, oci: OciTemplateConfig): void {
  const command = [...(oci.entrypoint ?? []), ...(oci.cmd ?? [])];
  if (command.length) config.entrypoint = command.join(' ');
  config.cmode = 'console';
  if (oci.env?.length) config.env = oci.env.join('\0');
  for (const key of Object.keys(config)) {
    if (!/^net\d+$/.test(key)) continue;
    const net = parsePropertyString(String(config[key]));
    if (!net.has('host-managed')) net.set('host-managed', '1');
    config[key] = formatPropertyString(net, undefined, ['name']);
  }
}

function createLog(
  vmid: number,
  storageType: string,
  sizeGiB: number,
  ostemplate: string,
  hostname: string,
  oci: boolean,
): string[] {
  const blocks = Math.round(sizeGiB * 262_144);
  const file = ostemplate.split('/').pop();
  const lines: string[] = [];
  if (storageType === 'lvmthin') lines.push(`  Logical volume "vm-${vmid}-disk-0" created.`);
  lines.push(
    `Creating filesystem with ${blocks} 4k blocks and ${blocks / 4} inodes`,
    'Allocating group tables: done                            ',
    'Writing inode tables: done                            ',
    'Creating journal (16384 blocks): done',
    'Writing superblocks and filesystem accounting information: done',
    '',
    `extracting archive '/var/lib/vz/template/cache/${file}'`,
    'Total bytes read: 524718080 (501MiB, 183MiB/s)',
    'Detected container architecture: amd64',
  );
  if (!oci) {
    for (const kind of ['rsa', 'ecdsa', 'ed25519']) {
      lines.push(
        `Creating SSH host key 'ssh_host_${kind}_key' - this may take some time ...`,
        `done: SHA256:${randomBytes(32).toString('base64').replace(/=+$/, '')} root@${hostname}`,
      );
    }
  }
  return lines;
}
