import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { ManagerDB, NodesTable } from '../db/schema.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;
export type NodeRow = Selectable<NodesTable>;

/** Rows of `nodes`. */
export class NodesRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  /** A site's nodes (or the one of them given), by id. */
  ofSite(siteId: number, nodeId?: number): Promise<NodeRow[]> {
    let query = this.db.selectFrom('nodes').selectAll().where('site_id', '=', siteId);
    if (nodeId !== undefined) query = query.where('id', '=', nodeId);
    return query.orderBy('id').execute();
  }

  inSite(siteId: number, id: number): Promise<NodeRow | undefined> {
    return this.db
      .selectFrom('nodes')
      .selectAll()
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
  }

  byId(id: number): Promise<NodeRow | undefined> {
    return this.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byIds(ids: number[]): Promise<NodeRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('nodes').selectAll().where('id', 'in', ids).execute();
  }

  byName(name: string, db: Db = this.db): Promise<NodeRow | undefined> {
    return db.selectFrom('nodes').selectAll().where('name', '=', name).executeTakeFirst();
  }

  insert(values: Insertable<NodesTable>, db: Db = this.db): Promise<NodeRow> {
    return db.insertInto('nodes').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(
    siteId: number,
    id: number,
    values: Updateable<NodesTable>,
    db: Db = this.db,
  ): Promise<NodeRow | undefined> {
    return db
      .updateTable('nodes')
      .set(values)
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .returningAll()
      .executeTakeFirst();
  }

  async containerCount(nodeId: number): Promise<number> {
    const row = await this.db
      .selectFrom('containers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('node_id', '=', nodeId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async delete(siteId: number, id: number, db: Db = this.db): Promise<void> {
    await db.deleteFrom('nodes').where('id', '=', id).where('site_id', '=', siteId).execute();
  }
}
