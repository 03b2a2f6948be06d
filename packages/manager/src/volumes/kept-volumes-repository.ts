import type { Kysely, Selectable, Transaction } from 'kysely';
import type { KeptVolumesTable, ManagerDB } from '../db/schema.ts';

export type KeptVolumeRow = Selectable<KeptVolumesTable>;
type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/** The kept folders of deleted containers' volumes. */
export class KeptVolumesRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  /** Inside the deleting transaction: the container's volumes that got a folder become kept ones. */
  async keepFrom(
    trx: Transaction<ManagerDB>,
    container: { id: number; siteId: number; hostname: string },
    keptAt: string,
  ): Promise<{ name: string; hostPath: string }[]> {
    const volumes = await trx
      .selectFrom('volumes')
      .select(['name', 'host_path', 'mount_path'])
      .where('container_id', '=', container.id)
      .where('host_path', 'is not', null)
      .orderBy('id')
      .execute();
    if (!volumes.length) return [];
    await trx
      .insertInto('kept_volumes')
      .values(
        volumes.map((volume) => ({
          site_id: container.siteId,
          hostname: container.hostname,
          name: volume.name,
          host_path: volume.host_path!,
          mount_path: volume.mount_path,
          kept_at: keptAt,
          status: 'kept' as const,
          status_message: null,
        })),
      )
      .execute();
    return volumes.map((volume) => ({ name: volume.name, hostPath: volume.host_path! }));
  }

  /** Whether a container's volume has this folder again. */
  async folderInUse(hostPath: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('volumes')
      .select('id')
      .where('host_path', '=', hostPath)
      .executeTakeFirst();
    return Boolean(row);
  }

  listForSite(siteId: number): Promise<KeptVolumeRow[]> {
    return this.db
      .selectFrom('kept_volumes')
      .selectAll()
      .where('site_id', '=', siteId)
      .orderBy('id')
      .execute();
  }

  find(siteId: number, id: number): Promise<KeptVolumeRow | undefined> {
    return this.db
      .selectFrom('kept_volumes')
      .selectAll()
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
  }

  markRemoving(siteId: number, id: number, db: Db = this.db): Promise<KeptVolumeRow | undefined> {
    return db
      .updateTable('kept_volumes')
      .set({ status: 'removing', status_message: null })
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .returningAll()
      .executeTakeFirst();
  }
}
