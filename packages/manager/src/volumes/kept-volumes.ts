import type { Transaction } from 'kysely';
import { notFound } from '@app/server-kit';
import { fail } from '../errors/catalogue.ts';
import { isRemovableVolumePath } from '@app/agent/config-values';
import type { KeptVolumesTable, ManagerDB } from '../db/schema.ts';
import type { KeptVolumeRow, KeptVolumesRepository } from './kept-volumes-repository.ts';
import { nowIso } from '../common/time.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { SitesService } from '../sites/sites-service.ts';

/** A deleted container's volume folder, as the API shows it. */
export interface KeptVolume {
  id: number;
  siteId: number;
  hostname: string;
  name: string;
  hostPath: string;
  mountPath: string;
  keptAt: string;
  /** kept; removing (the site agent deletes it at its next check-in); remove_failed (see statusMessage). */
  status: KeptVolumesTable['status'];
  statusMessage: string | null;
}

const toKeptVolume = (row: KeptVolumeRow): KeptVolume => ({
  id: row.id,
  siteId: row.site_id,
  hostname: row.hostname,
  name: row.name,
  hostPath: row.host_path,
  mountPath: row.mount_path,
  keptAt: row.kept_at,
  status: row.status,
  statusMessage: row.status_message,
});

/** What the service asks of its repository (the specs hand it an in-memory one). */
export type KeptVolumesStore = Pick<
  KeptVolumesRepository,
  'keepFrom' | 'folderInUse' | 'listForSite' | 'find' | 'markRemoving'
>;

/**
 * The volume folders of deleted containers: a delete keeps them (data is never removed as a side
 * effect), and an administrator has each removed by the site agent when it is no longer wanted.
 */
export class KeptVolumes {
  constructor(
    private readonly repo: KeptVolumesStore,
    private readonly sites: Pick<SitesService, 'assertExists'>,
    private readonly audit: Pick<AuditLog, 'audited'>,
  ) {}

  /**
   * Inside the transaction deleting the container: its volumes that got a folder are kept for its
   * site. The caller deletes the container (and with it its volume rows).
   */
  keep(
    trx: Transaction<ManagerDB>,
    container: { id: number; siteId: number; hostname: string },
  ): Promise<{ name: string; hostPath: string }[]> {
    return this.repo.keepFrom(trx, container, nowIso());
  }

  async list(siteId: number): Promise<KeptVolume[]> {
    await this.sites.assertExists(siteId);
    return (await this.repo.listForSite(siteId)).map(toKeptVolume);
  }

  /**
   * Marks a kept folder for removal: the site agent deletes it at its next check-in and the row goes
   * then. Only a path of the shape the manager gives volume folders is ever handed to the agent.
   */
  async remove(siteId: number, id: number): Promise<KeptVolume> {
    await this.sites.assertExists(siteId);
    const row = await this.repo.find(siteId, id);
    if (!row) throw notFound('Kept volume not found.');
    if (!isRemovableVolumePath(row.host_path, siteId)) {
      throw fail(
        'path_not_removable',
        `${row.host_path} is not a volume folder path this manager makes; remove it on the host by hand.`,
      );
    }
    if (await this.repo.folderInUse(row.host_path)) {
      throw fail(
        'volume_in_use',
        `${row.host_path} is the folder of a volume of a container again (one of the same hostname and owner); ` +
          'it is not removed while that container has it.',
      );
    }
    const updated = await this.audit.audited((trx) => this.repo.markRemoving(siteId, id, trx));
    if (!updated) throw notFound('Kept volume not found.');
    return toKeptVolume(updated);
  }
}
