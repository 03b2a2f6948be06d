import { chmod, chown, mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isRemovableVolumePath } from './config-values.ts';
import type { CheckinBody, VolumeEntry, VolumeRemoval } from './snapshot.ts';

type Results<K extends 'volumes' | 'volumeRemovals'> = NonNullable<CheckinBody[K]>;

const isId = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

function assertAbsoluteClean(path: string) {
  if (!path.startsWith('/') || path.split('/').includes('..')) {
    throw new Error(`refusing host path ${path}: it must be absolute, without ..`);
  }
}

/**
 * Creates the host folder of each pending volume; the result goes back with the next check-in. With
 * an owner, the folder (only the folder itself: data already in it is left as it is) gets that owner
 * and is closed to others; without one (an older manager), it stays root's, as it was made.
 */
export async function prepareVolumes(volumes: VolumeEntry[]): Promise<Results<'volumes'>> {
  const results: Results<'volumes'> = [];
  for (const volume of volumes.filter((entry) => entry.status === 'pending')) {
    try {
      assertAbsoluteClean(volume.hostPath);
      const { uid, gid } = volume;
      if (isId(uid) && isId(gid)) {
        await mkdir(dirname(volume.hostPath), { recursive: true, mode: 0o755 });
        await mkdir(volume.hostPath, { recursive: true });
        await chown(volume.hostPath, uid, gid);
        await chmod(volume.hostPath, volume.mode === 'ro' ? 0o750 : 0o770);
      } else {
        await mkdir(volume.hostPath, { recursive: true, mode: volume.mode === 'ro' ? 0o755 : 0o775 });
      }
      results.push({ id: volume.id, status: 'ready', message: null });
    } catch (error) {
      results.push({ id: volume.id, status: 'failed', message: describe(error) });
    }
  }
  return results;
}

/** Deletes the folders of kept volumes an administrator had removed; refuses any other path. */
export async function removeVolumes(
  removals: VolumeRemoval[],
  siteId: number,
): Promise<Results<'volumeRemovals'>> {
  const results: Results<'volumeRemovals'> = [];
  for (const removal of removals) {
    try {
      if (!isRemovableVolumePath(removal.hostPath, siteId)) {
        throw new Error(
          `refusing to remove ${removal.hostPath}: not a volume folder of site ${siteId} ` +
            '(<storage>/<site>/<uid>/<hostname>/<name>)',
        );
      }
      // A symbolic link in its place is removed, not followed.
      await rm(removal.hostPath, { recursive: true, force: true });
      results.push({ id: removal.id, status: 'removed', message: null });
    } catch (error) {
      results.push({ id: removal.id, status: 'failed', message: describe(error) });
    }
  }
  return results;
}
