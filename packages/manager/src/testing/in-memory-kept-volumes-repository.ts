import type { Transaction } from 'kysely';
import type { ManagerDB } from '../db/schema.ts';
import type { KeptVolumeRow } from '../volumes/kept-volumes-repository.ts';
import type { KeptVolumesStore } from '../volumes/kept-volumes.ts';

/** A container's volume as the `volumes` table holds it: `hostPath` is null until a folder was made. */
export interface InMemoryVolume {
  containerId: number;
  name: string;
  hostPath: string | null;
  mountPath: string;
}

/** Kept volume folders in memory, beside the containers' volumes they are kept from and checked against. */
export class InMemoryKeptVolumesRepository implements KeptVolumesStore {
  readonly rows: KeptVolumeRow[] = [];
  readonly volumes: InMemoryVolume[] = [];
  private lastId = 0;

  async keepFrom(
    _trx: Transaction<ManagerDB>,
    container: { id: number; siteId: number; hostname: string },
    keptAt: string,
  ): Promise<{ name: string; hostPath: string }[]> {
    const kept = this.volumes.flatMap((volume) =>
      volume.containerId === container.id && volume.hostPath !== null
        ? [{ name: volume.name, hostPath: volume.hostPath, mountPath: volume.mountPath }]
        : [],
    );
    for (const volume of kept) {
      this.lastId += 1;
      this.rows.push({
        id: this.lastId,
        site_id: container.siteId,
        hostname: container.hostname,
        name: volume.name,
        host_path: volume.hostPath,
        mount_path: volume.mountPath,
        kept_at: keptAt,
        status: 'kept',
        status_message: null,
      });
    }
    return kept.map(({ name, hostPath }) => ({ name, hostPath }));
  }

  async folderInUse(hostPath: string): Promise<boolean> {
    return this.volumes.some((volume) => volume.hostPath === hostPath);
  }

  async listForSite(siteId: number): Promise<KeptVolumeRow[]> {
    return this.rows.filter((row) => row.site_id === siteId);
  }

  async find(siteId: number, id: number): Promise<KeptVolumeRow | undefined> {
    const row = this.rows.find((candidate) => candidate.site_id === siteId && candidate.id === id);
    return row && { ...row };
  }

  async markRemoving(siteId: number, id: number): Promise<KeptVolumeRow | undefined> {
    const row = this.rows.find((candidate) => candidate.site_id === siteId && candidate.id === id);
    if (!row) return undefined;
    Object.assign(row, { status: 'removing', status_message: null });
    return { ...row };
  }
}
