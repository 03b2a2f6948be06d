import { ProviderError, type BindMount, type InstanceInfo } from '../types.ts';

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

/** A `env` value (PVE 9.1+: `KEY=value` entries separated by NUL) as variables, in its order. */
export function parseEnv(value: string | undefined): Record<string, string> {
  const entries = (value ? value.split('\0') : []).flatMap((entry) => {
    const index = entry.indexOf('=');
    return index > 0 ? [[entry.slice(0, index), entry.slice(index + 1)] as const] : [];
  });
  return Object.fromEntries(entries);
}

/**
 * The `env` value of `ours` set over `base`: base's entries keep their order (ours replace their
 * values), ours that are new follow. Empty when both are.
 */
export function mergeEnv(base: Record<string, string>, ours: Record<string, string>): string {
  return Object.entries({ ...base, ...ours })
    .map(([key, value]) => `${key}=${value}`)
    .join('\0');
}

/** A bind mount point as `mpN` takes it: `/host/dir,mp=/data[,ro=1]`. */
export const formatMountPoint = (mount: BindMount) =>
  `${mount.hostPath},mp=${mount.mountPath}${mount.readOnly ? ',ro=1' : ''}`;

/** What Proxmox VE 9.1's schema refuses in `env` values and `entrypoint`: C0 controls but \t–\x0F, and DEL. */
const refusedByPve = (code: number) => code <= 0x08 || (code >= 0x10 && code <= 0x1f) || code === 0x7f;

/**
 * Refuses, before the node is asked, an environment value or entrypoint PVE's schema would refuse
 * (`env: value does not match the regex pattern`), naming the variable and the character.
 */
export function checkOciOverrides(spec: {
  environment?: Record<string, string>;
  entrypoint?: string | null;
}) {
  const texts = [
    ...Object.entries(spec.environment ?? {}).map(([key, value]) => [`the value of ${key}`, value] as const),
    ...(spec.entrypoint ? [['the entrypoint', spec.entrypoint] as const] : []),
  ];
  for (const [what, text] of texts) {
    const refused = [...text].find((character) => refusedByPve(character.charCodeAt(0)));
    if (refused === undefined) continue;
    const code = `U+${refused.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new ProviderError(
      `Proxmox VE does not accept the control character ${code} in ${what}; remove it and try again.`,
    );
  }
}
