import type { BindMount, InstanceInfo } from '../types.ts';

/** One entry of `GET /nodes/{node}/lxc` (vmid is a string before PVE 8.2). */
export interface PveLxc {
  vmid: number | string;
  name?: string;
  status: string;
  template?: number;
}

export function lxcListToInstances(list: PveLxc[]): Map<string, InstanceInfo> {
  const instances = new Map<string, InstanceInfo>();
  for (const entry of list ?? []) {
    const containerId = String(entry.vmid);
    instances.set(containerId, {
      containerId,
      hostname: entry.name ?? `CT${containerId}`,
      state: entry.status === 'running' ? 'running' : 'stopped',
    });
  }
  return instances;
}

/** `name=eth0,bridge=vmbr0,hwaddr=…,ip=…` → its keys. */
export function parseNet0(value: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of value.split(',')) {
    const index = part.indexOf('=');
    if (index > 0) result[part.slice(0, index)] = part.slice(index + 1);
  }
  return result;
}

/**
 * The file `oci-registry-pull` writes for a reference when no filename is given: the path is stripped,
 * characters outside `[A-Za-z0-9_.-]` become `_`, and `.tar` is appended (`docker.io/library/nginx:alpine`
 * → `nginx_alpine.tar`).
 */
export function ociTemplateFile(reference: string): string {
  const last = reference.slice(reference.lastIndexOf('/') + 1);
  return `${last.replace(/[^A-Za-z0-9_.-]/g, '_')}.tar`;
}

/**
 * A `env` value (PVE 9.1+: `KEY=value` entries separated by NUL) with `ours` set over `current`'s
 * entries, which keep their order; ours that are new follow.
 */
export function mergeEnv(current: string | undefined, ours: Record<string, string>): string {
  const merged = new Map<string, string>();
  for (const entry of current ? current.split('\0') : []) {
    const index = entry.indexOf('=');
    if (index > 0) merged.set(entry.slice(0, index), entry.slice(index + 1));
  }
  for (const [key, value] of Object.entries(ours)) merged.set(key, value);
  return [...merged].map(([key, value]) => `${key}=${value}`).join('\0');
}

/** A bind mount point as `mpN` takes it: `/host/dir,mp=/data[,ro=1]`. */
export const formatMountPoint = (mount: BindMount) =>
  `${mount.hostPath},mp=${mount.mountPath}${mount.readOnly ? ',ro=1' : ''}`;
