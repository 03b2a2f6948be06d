import { mkdir } from 'node:fs/promises';
import type { CheckinBody, VolumeEntry } from './snapshot.ts';

/** Creates the host folder of each pending volume; the result goes back with the next check-in. */
export async function prepareVolumes(volumes: VolumeEntry[]): Promise<NonNullable<CheckinBody['volumes']>> {
  const results: NonNullable<CheckinBody['volumes']> = [];
  for (const volume of volumes.filter((entry) => entry.status === 'pending')) {
    try {
      if (!volume.hostPath.startsWith('/') || volume.hostPath.split('/').includes('..')) {
        throw new Error(`refusing host path ${volume.hostPath}: it must be absolute, without ..`);
      }
      await mkdir(volume.hostPath, { recursive: true, mode: volume.mode === 'ro' ? 0o755 : 0o775 });
      results.push({ id: volume.id, status: 'ready', message: null });
    } catch (error) {
      results.push({
        id: volume.id,
        status: 'failed',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return results;
}
