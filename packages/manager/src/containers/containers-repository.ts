import { sql, type Kysely, type Transaction } from 'kysely';
import type { ContainersTable, ManagerDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { JobStatus } from '../jobs/types.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/** A container row with what its answer needs from its node and creation job. */
export interface ContainerRecord {
  id: number;
  hostname: string;
  owner: string;
  nodeId: number;
  nodeName: string;
  nodeApiUrl: string | null;
  siteId: number;
  containerId: string | null;
  storedStatus: ContainersTable['status'];
  template: string;
  ipv4Address: string | null;
  macAddress: string | null;
  creationJobId: number | null;
  creationJobStatus: JobStatus | null;
  entrypoint: string | null;
  environmentVars: Record<string, string>;
  /** The image's own environment as recorded at create; null when not recorded (see migration 005). */
  imageEnvironment: Record<string, string> | null;
  nvidiaRequested: boolean;
  createdAt: string;
}

export interface ListFilter {
  siteId: number;
  hostname?: string | undefined;
  nodeId?: number | undefined;
  /** Owners to include (empty: any). */
  owners?: string[] | undefined;
  /** Non-admins: only containers this user owns or shares. */
  visibleTo?: string | undefined;
}

export type NewContainer = Omit<ContainersTable, 'id' | 'created_at' | 'updated_at'>;

/** Every query over `containers` and `container_collaborators`. */
export class ContainersRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  private select(db: Db) {
    return db
      .selectFrom('containers')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .leftJoin('jobs', 'jobs.id', 'containers.creation_job_id')
      .selectAll('containers')
      .select([
        'nodes.name as node_name',
        'nodes.api_url as node_api_url',
        'nodes.site_id',
        'jobs.status as job_status',
      ]);
  }

  async list(filter: ListFilter): Promise<ContainerRecord[]> {
    let query = this.select(this.db).where('nodes.site_id', '=', filter.siteId);
    if (filter.hostname) query = query.where('containers.hostname', '=', filter.hostname.toLowerCase());
    if (filter.nodeId !== undefined) query = query.where('containers.node_id', '=', filter.nodeId);
    if (filter.owners?.length) query = query.where('containers.owner', 'in', filter.owners);
    const user = filter.visibleTo;
    if (user !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('containers.owner', '=', user),
          eb.exists(
            eb
              .selectFrom('container_collaborators')
              .whereRef('container_collaborators.container_id', '=', 'containers.id')
              .where('container_collaborators.username', '=', user)
              .select(sql`1`.as('one')),
          ),
        ]),
      );
    }
    return (await query.orderBy('containers.id').execute()).map(toRecord);
  }

  async get(siteId: number, id: number, db: Db = this.db): Promise<ContainerRecord | undefined> {
    const row = await this.select(db)
      .where('containers.id', '=', id)
      .where('nodes.site_id', '=', siteId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async getById(id: number, db: Db = this.db): Promise<ContainerRecord | undefined> {
    const row = await this.select(db).where('containers.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async findByHostname(siteId: number, hostname: string): Promise<ContainerRecord | undefined> {
    const row = await this.select(this.db)
      .where('containers.hostname', '=', hostname.toLowerCase())
      .where('nodes.site_id', '=', siteId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async insert(db: Db, values: NewContainer): Promise<number> {
    const now = nowIso();
    const row = await db
      .insertInto('containers')
      .values({ ...values, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(
    db: Db,
    id: number,
    values: Partial<Omit<ContainersTable, 'id' | 'created_at'>>,
  ): Promise<boolean> {
    const result = await db
      .updateTable('containers')
      .set({ ...values, updated_at: nowIso() })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('containers').where('id', '=', id).execute();
  }

  /** Used MACs and IPv4 addresses (globally unique), for the allocation inside a create. */
  async usedAddresses(db: Db): Promise<{ macs: Set<string>; ipv4s: string[] }> {
    const rows = await db
      .selectFrom('containers')
      .select(['mac_address', 'ipv4_address'])
      .where((eb) => eb.or([eb('mac_address', 'is not', null), eb('ipv4_address', 'is not', null)]))
      .execute();
    return {
      macs: new Set(rows.flatMap((row) => (row.mac_address ? [row.mac_address] : []))),
      ipv4s: rows.flatMap((row) => (row.ipv4_address ? [row.ipv4_address] : [])),
    };
  }

  // Collaborators

  async collaborators(containerId: number, db: Db = this.db): Promise<string[]> {
    const rows = await db
      .selectFrom('container_collaborators')
      .select('username')
      .where('container_id', '=', containerId)
      .orderBy('username')
      .execute();
    return rows.map((row) => row.username);
  }

  async collaboratorsForSite(siteId: number): Promise<Map<number, string[]>> {
    const rows = await this.db
      .selectFrom('container_collaborators')
      .innerJoin('containers', 'containers.id', 'container_collaborators.container_id')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .select(['container_collaborators.container_id', 'container_collaborators.username'])
      .where('nodes.site_id', '=', siteId)
      .orderBy('container_collaborators.username')
      .execute();
    const byContainer = new Map<number, string[]>();
    for (const row of rows) {
      const list = byContainer.get(row.container_id);
      if (list) list.push(row.username);
      else byContainer.set(row.container_id, [row.username]);
    }
    return byContainer;
  }

  /** Adds collaborators; already present ones are left as they are (idempotent). */
  async addCollaborators(containerId: number, usernames: string[], db: Db = this.db): Promise<void> {
    if (!usernames.length) return;
    const now = nowIso();
    await db
      .insertInto('container_collaborators')
      .values(usernames.map((username) => ({ container_id: containerId, username, created_at: now })))
      .onConflict((oc) => oc.columns(['container_id', 'username']).doNothing())
      .execute();
  }

  async removeCollaborator(containerId: number, username: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('container_collaborators')
      .where('container_id', '=', containerId)
      .where('username', '=', username)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async isCollaborator(containerId: number, username: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('container_collaborators')
      .select('username')
      .where('container_id', '=', containerId)
      .where('username', '=', username)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Containers per node of the site (for the least-loaded choice). */
  async countsByNode(siteId: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('containers')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .select((eb) => ['containers.node_id', eb.fn.countAll<number>().as('n')])
      .where('nodes.site_id', '=', siteId)
      .groupBy('containers.node_id')
      .execute();
    return new Map(rows.map((row) => [row.node_id, Number(row.n)]));
  }
}

type Row = Awaited<ReturnType<ReturnType<ContainersRepository['select']>['execute']>>[number];

const toRecord = (row: Row): ContainerRecord => ({
  id: row.id,
  hostname: row.hostname,
  owner: row.owner,
  nodeId: row.node_id,
  nodeName: row.node_name,
  nodeApiUrl: row.node_api_url,
  siteId: row.site_id,
  containerId: row.container_id,
  storedStatus: row.status,
  template: row.template,
  ipv4Address: row.ipv4_address,
  macAddress: row.mac_address,
  creationJobId: row.creation_job_id,
  creationJobStatus: row.job_status,
  entrypoint: row.entrypoint,
  environmentVars: JSON.parse(row.environment_vars || '{}') as Record<string, string>,
  imageEnvironment:
    row.image_environment === null ? null : (JSON.parse(row.image_environment) as Record<string, string>),
  nvidiaRequested: Boolean(row.nvidia_requested),
  createdAt: row.created_at,
});
