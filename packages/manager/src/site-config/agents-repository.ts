import type { Kysely, Transaction } from 'kysely';
import type { AgentsTable, KeptVolumesTable, ManagerDB, VolumesTable } from '../db/schema.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

export type AgentReport = Pick<AgentsTable, 'ipv4_address' | 'services' | 'last_checkin_at'>;

/** An agent row with the name of its site, as GET /agents lists it. */
export interface AgentWithSite extends AgentReport {
  id: number;
  site_id: number;
  site_name: string | null;
  hostname: string;
}

/** The writes of an agent check-in (its record, its volume results) and the agents' reads. */
export class AgentsRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  async upsert(siteId: number, hostname: string, report: AgentReport): Promise<void> {
    await this.db
      .insertInto('agents')
      .values({ site_id: siteId, hostname, ...report })
      .onConflict((oc) => oc.columns(['site_id', 'hostname']).doUpdateSet(report))
      .execute();
  }

  listWithSites(): Promise<AgentWithSite[]> {
    return this.db
      .selectFrom('agents')
      .leftJoin('sites', 'sites.id', 'agents.site_id')
      .select([
        'agents.id',
        'agents.site_id',
        'sites.name as site_name',
        'agents.hostname',
        'agents.ipv4_address',
        'agents.services',
        'agents.last_checkin_at',
      ])
      .orderBy('agents.site_id')
      .orderBy('agents.hostname')
      .execute();
  }

  /** Records what the agent made of volume `id`, when the volume belongs to a container of the site. */
  async setVolumeResult(
    db: Db,
    siteId: number,
    id: number,
    result: Pick<VolumesTable, 'status' | 'status_message' | 'applied_at'>,
  ): Promise<void> {
    await db
      .updateTable('volumes')
      .set(result)
      .where('id', '=', id)
      .where('container_id', 'in', (eb) =>
        eb
          .selectFrom('containers')
          .innerJoin('nodes', 'nodes.id', 'containers.node_id')
          .select('containers.id')
          .where('nodes.site_id', '=', siteId),
      )
      .execute();
  }

  /** Deletes the site's kept volume `id` if its removal was asked for. */
  async deleteRemovedKeptVolume(db: Db, siteId: number, id: number): Promise<void> {
    await db
      .deleteFrom('kept_volumes')
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .where('status', '=', 'removing')
      .execute();
  }

  /** Marks the site's kept volume `id` as failed to remove, if its removal was asked for. */
  async markKeptVolumeRemoveFailed(
    db: Db,
    siteId: number,
    id: number,
    message: KeptVolumesTable['status_message'],
  ): Promise<void> {
    await db
      .updateTable('kept_volumes')
      .set({ status: 'remove_failed', status_message: message })
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .where('status', '=', 'removing')
      .execute();
  }

  /** The site of the service's container; undefined when there is no such service. */
  async siteOfService(serviceId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('services')
      .innerJoin('containers', 'containers.id', 'services.container_id')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .select('nodes.site_id')
      .where('services.id', '=', serviceId)
      .executeTakeFirst();
    return row?.site_id;
  }

  /** Sets the service's last access to `now` unless it was set after `notBefore`; false when not set. */
  async touchService(serviceId: number, now: string, notBefore: string): Promise<boolean> {
    const result = await this.db
      .updateTable('services')
      .set({ last_accessed_at: now })
      .where('id', '=', serviceId)
      .where((eb) => eb.or([eb('last_accessed_at', 'is', null), eb('last_accessed_at', '<', notBefore)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async serviceExists(serviceId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('services')
      .select('id')
      .where('id', '=', serviceId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
