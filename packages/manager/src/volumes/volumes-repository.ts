import type { Kysely } from 'kysely';
import type { ManagerDB, VolumesTable } from '../db/schema.ts';
import type { PlannedVolume } from './volume-paths.ts';

export interface VolumeRecord {
  id: number;
  name: string;
  hostPath: string | null;
  mountPath: string;
  mode: VolumesTable['mode'];
  status: VolumesTable['status'];
  statusMessage: string | null;
}

/** Every query over `volumes` outside the agent check-in. */
export class VolumesRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  /**
   * The builtin volumes of a new container: read-write, scope container, pending until an agent
   * reports, their folders to be owned by `owner` on the host.
   */
  async insertBuiltin(
    volumes: PlannedVolume[],
    containerId: number,
    owner: { uid: number; gid: number },
  ): Promise<void> {
    if (!volumes.length) return;
    await this.db
      .insertInto('volumes')
      .values(
        volumes.map((volume) => ({
          container_id: containerId,
          name: volume.name,
          host_path: null,
          mount_path: volume.mountPath,
          mode: 'rw' as const,
          scope: 'container',
          builtin: 1,
          status: 'pending' as const,
          status_message: null,
          applied_at: null,
          host_uid: owner.uid,
          host_gid: owner.gid,
        })),
      )
      .execute();
  }

  async forContainer(containerId: number): Promise<VolumeRecord[]> {
    const rows = await this.db
      .selectFrom('volumes')
      .select(['id', 'name', 'host_path', 'mount_path', 'mode', 'status', 'status_message'])
      .where('container_id', '=', containerId)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      hostPath: row.host_path,
      mountPath: row.mount_path,
      mode: row.mode === 'ro' ? 'ro' : 'rw',
      status: row.status,
      statusMessage: row.status_message,
    }));
  }

  /**
   * Provisioning: a volume without a host path gets one (kept from then on, so a later change of owner
   * never moves data), and a failed volume goes back to pending, so the agent tries it again.
   */
  async provision(volumes: VolumeRecord[], hostPathOf: (volume: VolumeRecord) => string): Promise<void> {
    for (const volume of volumes) {
      if (volume.hostPath === null) {
        await this.db
          .updateTable('volumes')
          .set({ host_path: hostPathOf(volume) })
          .where('id', '=', volume.id)
          .where('host_path', 'is', null)
          .execute();
      }
      if (volume.status === 'failed') {
        await this.db
          .updateTable('volumes')
          .set({ status: 'pending', status_message: null })
          .where('id', '=', volume.id)
          .where('status', '=', 'failed')
          .execute();
      }
    }
  }

  /** When a site agent of the site last checked in (null: never). */
  async lastCheckinOf(siteId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('agents')
      .select((eb) => eb.fn.max('last_checkin_at').as('last'))
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    return row?.last ?? null;
  }
}
