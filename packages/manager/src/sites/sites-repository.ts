import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { ManagerDB, SitesTable } from '../db/schema.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

export type SiteRow = Selectable<SitesTable>;
/** A site row with the number of its nodes. */
export type SiteWithNodeCount = SiteRow & { node_count: number | string | bigint | null };

/** `sites`: the sites and their node counts. */
export class SitesRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  private withCounts() {
    return this.db
      .selectFrom('sites')
      .selectAll('sites')
      .select((eb) =>
        eb
          .selectFrom('nodes')
          .whereRef('nodes.site_id', '=', 'sites.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('node_count'),
      )
      .orderBy('sites.id');
  }

  listWithNodeCounts(): Promise<SiteWithNodeCount[]> {
    return this.withCounts().execute();
  }

  withNodeCountById(id: number): Promise<SiteWithNodeCount | undefined> {
    return this.withCounts().where('sites.id', '=', id).executeTakeFirst();
  }

  async exists(id: number, db: Db = this.db): Promise<boolean> {
    return Boolean(await db.selectFrom('sites').select('id').where('id', '=', id).executeTakeFirst());
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('sites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  insert(values: Insertable<SitesTable>, db: Db = this.db): Promise<SiteRow> {
    return db.insertInto('sites').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** Undefined when there is no such site. */
  update(id: number, values: Updateable<SitesTable>, db: Db = this.db): Promise<SiteRow | undefined> {
    return db.updateTable('sites').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async nodeCount(id: number): Promise<number> {
    const row = await this.db
      .selectFrom('nodes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('site_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** False when there is no such site. */
  async delete(id: number, db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('sites').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
