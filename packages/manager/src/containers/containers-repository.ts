import { sql, type Kysely, type Transaction } from 'kysely';
import type { ContainersTable, ManagerDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { JobStatus } from '../jobs/types.ts';
import { usernameOf } from '../users/users-repository.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

/** A container row with what its answer needs from its node and creation job. */
export interface ContainerRecord {
  id: number;
  hostname: string;
  /** The owner's uidNumber: who may manage it. */
  ownerUid: number;
  /** The owner's username (a label). */
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
  /** What an unfinished create named on the node before making it; see migration 010. */
  madeInstance: string | null;
  /** While saved changes wait for a restart, the environment the instance runs with; else null. */
  appliedEnvironment: Record<string, string> | null;
  nvidiaRequested: boolean;
  createdAt: string;
}

export interface ListFilter {
  siteId: number;
  hostname?: string | undefined;
  nodeId?: number | undefined;
  /** uidNumbers of the owners to include (undefined: any). */
  owners?: number[] | undefined;
  /** Non-admins: only containers this user (uidNumber) owns or shares. */
  visibleTo?: number | undefined;
}

export type NewContainer = Omit<
  ContainersTable,
  'id' | 'created_at' | 'updated_at' | 'made_instance' | 'applied_environment'
>;

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
        usernameOf('containers.owner_uid_number').as('owner'),
      ]);
  }

  async list(filter: ListFilter): Promise<ContainerRecord[]> {
    let query = this.select(this.db).where('nodes.site_id', '=', filter.siteId);
    if (filter.hostname) query = query.where('containers.hostname', '=', filter.hostname.toLowerCase());
    if (filter.nodeId !== undefined) query = query.where('containers.node_id', '=', filter.nodeId);
    if (filter.owners) {
      if (!filter.owners.length) return [];
      query = query.where('containers.owner_uid_number', 'in', filter.owners);
    }
    const user = filter.visibleTo;
    if (user !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('containers.owner_uid_number', '=', user),
          eb.exists(
            eb
              .selectFrom('container_collaborators')
              .whereRef('container_collaborators.container_id', '=', 'containers.id')
              .where('container_collaborators.uid_number', '=', user)
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

  /** The container of any site that has this hostname (hostnames are unique across sites). */
  async findAnyByHostname(hostname: string): Promise<ContainerRecord | undefined> {
    const row = await this.select(this.db)
      .where('containers.hostname', '=', hostname.toLowerCase())
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** A container that has this hostname, this instance of the node, or this MAC or IPv4 address. */
  clashing(
    db: Db,
    taken: {
      hostname: string;
      nodeId: number;
      containerId: string;
      macAddress: string | null;
      ipv4Address: string | null;
    },
  ): Promise<{ id: number } | undefined> {
    return db
      .selectFrom('containers')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('hostname', '=', taken.hostname),
          eb.and([eb('node_id', '=', taken.nodeId), eb('container_id', '=', taken.containerId)]),
          ...(taken.macAddress ? [eb('mac_address', '=', taken.macAddress)] : []),
          ...(taken.ipv4Address ? [eb('ipv4_address', '=', taken.ipv4Address)] : []),
        ]),
      )
      .executeTakeFirst();
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

  /** Points the container at a new create job, unless another one replaced `previousJobId` first. */
  async replaceCreationJob(db: Db, id: number, previousJobId: number, jobId: number): Promise<boolean> {
    const result = await db
      .updateTable('containers')
      .set({ creation_job_id: jobId, status: 'pending', made_instance: null, updated_at: nowIso() })
      .where('id', '=', id)
      .where('creation_job_id', '=', previousJobId)
      .where('container_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: number, db: Db = this.db): Promise<void> {
    await db.deleteFrom('containers').where('id', '=', id).execute();
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

  /** Hostnames of the containers a user owns. */
  async hostnamesOwnedBy(uidNumber: number, db: Db = this.db): Promise<string[]> {
    const rows = await db
      .selectFrom('containers')
      .select('hostname')
      .where('owner_uid_number', '=', uidNumber)
      .orderBy('hostname')
      .execute();
    return rows.map((row) => row.hostname);
  }

  /** Gives every container of user `from` to user `to`, who stops being a mere collaborator of them. */
  async reassignOwner(db: Db, from: number, to: number): Promise<void> {
    await db
      .deleteFrom('container_collaborators')
      .where('uid_number', '=', to)
      .where(
        'container_id',
        'in',
        db.selectFrom('containers').select('id').where('owner_uid_number', '=', from),
      )
      .execute();
    await db
      .updateTable('containers')
      .set({ owner_uid_number: to, updated_at: nowIso() })
      .where('owner_uid_number', '=', from)
      .execute();
  }

  // Collaborators: rows by uidNumber (removed with their user), answered as usernames.

  private collaboratorRows(db: Db) {
    return db
      .selectFrom('container_collaborators')
      .innerJoin('users', 'users.uid_number', 'container_collaborators.uid_number')
      .select(['container_collaborators.container_id', 'users.uid as username'])
      .orderBy('users.uid');
  }

  async collaborators(containerId: number, db: Db = this.db): Promise<string[]> {
    const rows = await this.collaboratorRows(db)
      .where('container_collaborators.container_id', '=', containerId)
      .execute();
    return rows.map((row) => row.username);
  }

  async collaboratorsForSite(siteId: number): Promise<Map<number, string[]>> {
    const rows = await this.collaboratorRows(this.db)
      .innerJoin('containers', 'containers.id', 'container_collaborators.container_id')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .where('nodes.site_id', '=', siteId)
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
  async addCollaborators(containerId: number, uidNumbers: number[], db: Db = this.db): Promise<void> {
    if (!uidNumbers.length) return;
    const now = nowIso();
    await db
      .insertInto('container_collaborators')
      .values(uidNumbers.map((uid) => ({ container_id: containerId, uid_number: uid, created_at: now })))
      .onConflict((oc) => oc.columns(['container_id', 'uid_number']).doNothing())
      .execute();
  }

  async removeCollaborator(containerId: number, uidNumber: number, db: Db = this.db): Promise<boolean> {
    const result = await db
      .deleteFrom('container_collaborators')
      .where('container_id', '=', containerId)
      .where('uid_number', '=', uidNumber)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async isCollaborator(containerId: number, uidNumber: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('container_collaborators')
      .select('uid_number')
      .where('container_id', '=', containerId)
      .where('uid_number', '=', uidNumber)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The owner (uidNumber) of the container `ctid` on the node named `nodeName`, if there is one. */
  async ownerOnNode(nodeName: string, ctid: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('containers')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .select('containers.owner_uid_number')
      .where('nodes.name', '=', nodeName)
      .where('containers.container_id', '=', ctid)
      .executeTakeFirst();
    return row?.owner_uid_number ?? null;
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
  ownerUid: row.owner_uid_number,
  owner: row.owner ?? `#${row.owner_uid_number}`,
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
  madeInstance: row.made_instance,
  appliedEnvironment:
    row.applied_environment === null ? null : (JSON.parse(row.applied_environment) as Record<string, string>),
  nvidiaRequested: Boolean(row.nvidia_requested),
  createdAt: row.created_at,
});
