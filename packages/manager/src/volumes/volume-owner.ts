import type { NodeType } from '../nodes/node-rules.ts';

/** Proxmox VE maps an unprivileged container's ids 0–65535 to the host's 100000–165535. */
export const UNPRIVILEGED_ID_SHIFT = 100_000;
/** Largest id shift a node may set: shifted ids stay within a signed 32-bit column. */
export const MAX_VOLUME_ID_SHIFT = 1_000_000_000;
/** Largest container uid/gid taken from an image's `User`. */
const MAX_CONTAINER_ID = 1_000_000_000;

/** The shift a node of this type has unless set: containers are made unprivileged on hypervisors, engines are rootful. */
export const defaultIdShift = (nodeType: NodeType) => (nodeType === 'hypervisor' ? UNPRIVILEGED_ID_SHIFT : 0);

export interface VolumeOwner {
  uid: number;
  gid: number;
  /** Why the owner is root although the image names a user; for the job log. */
  note?: string;
}

const numericId = (value: string) =>
  /^\d{1,10}$/.test(value) && Number(value) <= MAX_CONTAINER_ID ? Number(value) : undefined;

/**
 * The container-side uid/gid an image's `User` (`uid`, `uid:gid`) runs as. A user or group name is
 * resolved through the image's /etc/passwd, which the manager does not read: undefined then. Without a
 * gid the folder's group is the uid's number, the usual primary group of a numeric user.
 */
export function imageUserIds(user: string): { uid: number; gid: number } | undefined {
  const [uidPart = '', gidPart, ...rest] = user.trim().split(':');
  if (rest.length) return undefined;
  const uid = numericId(uidPart);
  const gid = gidPart === undefined ? uid : numericId(gidPart);
  return uid === undefined || gid === undefined ? undefined : { uid, gid };
}

/**
 * The host uid/gid a container's volume folders get: the container's user (root on a hypervisor;
 * the image's `User` on an engine) shifted by the node's id mapping.
 */
export function volumeOwner(
  node: { nodeType: NodeType; volumeIdShift: number | null },
  imageUser: string | null,
): VolumeOwner {
  const shift = node.volumeIdShift ?? defaultIdShift(node.nodeType);
  const user = node.nodeType === 'engine' ? imageUser?.trim() : undefined;
  if (!user) return { uid: shift, gid: shift };
  const ids = imageUserIds(user);
  if (!ids) {
    return {
      uid: shift,
      gid: shift,
      note:
        `the image runs as user "${user}", which only its /etc/passwd resolves; ` +
        `the volume folders are owned by the container's root (host ${shift}:${shift}) instead`,
    };
  }
  return { uid: shift + ids.uid, gid: shift + ids.gid };
}
