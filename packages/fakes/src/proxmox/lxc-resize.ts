import { pveError } from './errors.ts';
import { formatPropertyString, parsePropertyString } from './params.ts';
import { configDigest } from './state.ts';
import type { PveContainer, PveNode, PveState } from './state.ts';
import type { TaskWork } from './tasks.ts';

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

const bytesOf = (size: string) => {
  const [, number, unit] = /^\+?(\d+(?:\.\d+)?)([KMGT]?)$/.exec(size)!;
  return Math.round(Number(number) * UNITS[unit!]!);
};

/** `8589934592` bytes → `8G`, as pct writes sizes. */
const sizeText = (bytes: number) => {
  const unit = (['T', 'G', 'M', 'K'] as const).find((u) => bytes % UNITS[u]! === 0);
  return unit ? `${bytes / UNITS[unit]!}${unit}` : String(bytes);
};

/**
 * `PUT /nodes/{node}/lxc/{vmid}/resize` (async, type `resize`): `size` absolute or `+` relative; the
 * checks run before the worker, the volume grows in it and fails when a thick storage has no room (a
 * thin pool is over-committed: growing a thin volume always works).
 */
export function planResize(
  state: PveState,
  node: PveNode,
  ct: PveContainer,
  params: Record<string, string | number>,
): TaskWork {
  const disk = String(params.disk);
  const size = String(params.size);
  if (params.digest !== undefined && params.digest !== configDigest(ct.config))
    throw pveError(500, 'detected modified configuration - file changed by other user? Try again.');
  if (ct.lock) throw pveError(500, `CT is locked (${ct.lock})`);
  if (ct.config[disk] === undefined) throw pveError(500, `disk '${disk}' does not exist`);
  const mount = parsePropertyString(String(ct.config[disk]), 'volume');
  const volume = state.findVolume(node, mount.get('volume')!);
  const current = volume?.size ?? bytesOf(mount.get('size') ?? '0');
  const wanted = size.startsWith('+') ? current + bytesOf(size) : bytesOf(size);
  if (wanted < current) throw pveError(500, 'unable to shrink disk size');
  return {
    lines: [`Size of logical volume ${mount.get('volume')} changed to ${sizeText(wanted)}.`],
    run: () => {
      const storage = state.storage(node, mount.get('volume')!.split(':')[0]!);
      const more = wanted - current;
      if (storage.type !== 'lvmthin' && more > storage.total - storage.used) {
        throw new Error(
          `Insufficient free space: ${Math.ceil(more / 4 / 1024 ** 2)} extents needed, but only ` +
            `${Math.floor((storage.total - storage.used) / 4 / 1024 ** 2)} available`,
        );
      }
      storage.used += more;
      if (volume) volume.size = wanted;
      mount.set('size', sizeText(wanted));
      ct.config[disk] = formatPropertyString(mount, 'volume');
    },
  };
}
