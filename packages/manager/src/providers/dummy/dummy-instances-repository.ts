import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DummyInstancesTable, ManagerDB } from '../../db/schema.ts';

export type DummyInstance = Selectable<DummyInstancesTable>;

/** The simulated nodes' instances (`dummy_instances`), keyed by node and vmid. */
export class DummyInstancesRepository {
  constructor(private readonly db: Kysely<ManagerDB>) {}

  find(nodeId: number, vmid: number): Promise<DummyInstance | undefined> {
    return this.db
      .selectFrom('dummy_instances')
      .selectAll()
      .where('node_id', '=', nodeId)
      .where('vmid', '=', vmid)
      .executeTakeFirst();
  }

  ofNode(nodeId: number): Promise<DummyInstance[]> {
    return this.db
      .selectFrom('dummy_instances')
      .selectAll()
      .where('node_id', '=', nodeId)
      .orderBy('vmid')
      .execute();
  }

  async maxVmid(nodeId: number): Promise<number> {
    const row = await this.db
      .selectFrom('dummy_instances')
      .select((eb) => eb.fn.max('vmid').as('max'))
      .where('node_id', '=', nodeId)
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  async insert(values: Insertable<DummyInstancesTable>): Promise<void> {
    await this.db.insertInto('dummy_instances').values(values).execute();
  }

  async update(
    nodeId: number,
    vmid: number,
    values: { state?: DummyInstance['state']; config?: string },
  ): Promise<void> {
    await this.db
      .updateTable('dummy_instances')
      .set(values)
      .where('node_id', '=', nodeId)
      .where('vmid', '=', vmid)
      .execute();
  }

  async delete(nodeId: number, vmid: number): Promise<void> {
    await this.db
      .deleteFrom('dummy_instances')
      .where('node_id', '=', nodeId)
      .where('vmid', '=', vmid)
      .execute();
  }
}
