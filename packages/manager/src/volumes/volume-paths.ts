import { createHash } from 'node:crypto';
import { posix } from 'node:path';

/** Longest volume name the table holds. */
export const MAX_NAME_LENGTH = 64;
/** Longest mount path taken from an image. */
export const MAX_MOUNT_PATH_LENGTH = 256;
/** Most volumes one image gives its container (an image can declare any number of VOLUMEs). */
export const MAX_IMAGE_VOLUMES = 32;

/** A builtin volume as the create transaction stores it. */
export interface PlannedVolume {
  name: string;
  mountPath: string;
}

/**
 * One path component made of anything (a username, a hostname, a volume name): characters outside
 * `A-Za-z0-9._-` and a leading dot are percent-encoded, so the result never holds `/`, is never `.`
 * or `..`, and two different values never share a folder.
 */
export function pathSegment(value: string): string {
  if (!value) throw new Error('a path component must not be empty');
  const encoded = [...Buffer.from(value, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9._-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
  return encoded.startsWith('.') ? `%2E${encoded.slice(1)}` : encoded;
}

/** A clean absolute path: normalised, without `..`, a trailing slash or characters unsafe anywhere. */
export function cleanAbsolutePath(value: string): string | undefined {
  // `,` and `=` separate Proxmox property strings, `:` separates Docker bind specs.
  if (!value.startsWith('/') || /[,=:]/.test(value)) return undefined;
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return undefined;
  if (value.split('/').includes('..')) return undefined;
  const normal = posix.normalize(value).replace(/\/+$/, '');
  return normal || undefined;
}

/**
 * Where a node keeps volume folders: its volume storage when that is an absolute path, otherwise the
 * folder the storage is mounted at under `root` (Proxmox VE mounts storages at `/mnt/pve/<id>`).
 */
export function volumeStorageDir(volumeStorage: string, root: string): string {
  const direct = cleanAbsolutePath(volumeStorage.trim());
  if (direct) return direct;
  return posix.join(cleanAbsolutePath(root) ?? '/mnt/pve', pathSegment(volumeStorage.trim()));
}

/**
 * `<storage dir>/<site id>/<owner uidNumber>/<hostname>/<volume name>`, each component made safe. The
 * owner is their immutable number, not their username, so a newcomer who registers the name of a
 * deleted user never lands in that user's folders. (Volumes provisioned before keep their stored path.)
 */
export function volumeHostPath(
  storageDir: string,
  parts: { siteId: number; ownerUid: number; hostname: string; name: string },
): string {
  return posix.join(
    storageDir,
    String(parts.siteId),
    String(parts.ownerUid),
    pathSegment(parts.hostname),
    pathSegment(parts.name),
  );
}

const shortHash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 8);

export interface ImageVolumePlan {
  volumes: PlannedVolume[];
  /** Paths that cannot be mounted safely. */
  skipped: string[];
  /** Paths longer than MAX_MOUNT_PATH_LENGTH. */
  tooLong: string[];
  /** How many usable paths came after the first MAX_IMAGE_VOLUMES and were left out. */
  overLimit: number;
}

/**
 * Builtin volumes for the VOLUME paths an image declares (the first MAX_IMAGE_VOLUMES usable ones):
 * `/var/lib/postgresql/data` is named `var-lib-postgresql-data`. A name that would be too long or
 * taken gets a hash of its path. What is left out, and why, is in the plan.
 */
export function planImageVolumes(paths: string[]): ImageVolumePlan {
  const plan: ImageVolumePlan = { volumes: [], skipped: [], tooLong: [], overLimit: 0 };
  const names = new Set<string>();
  const mounts = new Set<string>();
  for (const path of paths) {
    if (path.length > MAX_MOUNT_PATH_LENGTH) {
      plan.tooLong.push(path);
      continue;
    }
    const mountPath = cleanAbsolutePath(path.trim());
    if (!mountPath || mountPath === '/') {
      plan.skipped.push(path);
      continue;
    }
    if (mounts.has(mountPath)) continue;
    if (plan.volumes.length >= MAX_IMAGE_VOLUMES) {
      plan.overLimit += 1;
      continue;
    }
    let name = mountPath
      .slice(1)
      .replace(/\//g, '-')
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^\./, '_');
    if (name.length > MAX_NAME_LENGTH || names.has(name)) {
      name = `${name.slice(0, MAX_NAME_LENGTH - 9)}-${shortHash(mountPath)}`;
    }
    names.add(name);
    mounts.add(mountPath);
    plan.volumes.push({ name, mountPath });
  }
  return plan;
}
